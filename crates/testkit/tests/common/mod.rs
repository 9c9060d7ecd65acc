//! What the judge tests share: finding processes by command line.

/// The live processes (zombies aside) whose command line, arguments joined by
/// spaces, satisfies `wanted`, each as "pid: command line".
pub fn alive(wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = state.rsplit_once(')').is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        if !zombie && wanted(cmdline.trim_end()) {
            found.push(format!("{pid}: {}", cmdline.trim_end()));
        }
    }
    found
}
