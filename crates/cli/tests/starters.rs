//! Every starter bot, as a contestant gets it from `versus new`, compiles in
//! the sandbox and plays whole games against `builtin:random` and
//! `builtin:greedy` from both seats with no fault; a data file is there at
//! run time and not at compile time; oversized sources and data are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");
/// Each language, the file `versus new` writes, and what the `src:` spec
/// adds when the extension names another language.
const LANGUAGES: [(&str, &str, &str); 13] = [
    ("c", "bot.c", ""),
    ("cpp", "bot.cpp", ""),
    ("python", "bot.py", ""),
    ("pypy", "bot.py", "?lang=pypy"),
    ("rust", "bot.rs", ""),
    ("java", "Main.java", ""),
    ("kotlin", "Main.kt", ""),
    ("go", "bot.go", ""),
    ("javascript", "bot.js", ""),
    ("typescript", "bot.ts", ""),
    ("lua", "bot.lua", ""),
    ("luajit", "bot.lua", "?lang=luajit"),
    ("csharp", "bot.cs", ""),
];

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("versus-starters-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `versus` with its build cache in `cache`, so that the test builds every
/// starter itself.
fn versus(cache: &Path, args: &[&str]) -> Output {
    Command::new(VERSUS).env("VERSUS_CACHE", cache).args(args).output().expect("versus runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every language's starter of `game`: one game against `random` from the
/// first seat and one against `greedy` from the second.
fn starters_play(game: &str) {
    let dir = folder(game);
    let cache = dir.join("cache");
    for (lang, file, suffix) in LANGUAGES {
        let bot = dir.join(lang);
        let made = versus(&cache, &["new", game, "--lang", lang, bot.to_str().unwrap()]);
        assert!(made.status.success(), "{lang}: {}", text(&made.stderr));
        let printed = text(&made.stdout);
        let path = bot.join(file);
        let spec = format!("src:{}{suffix}", path.display());
        assert!(path.is_file(), "{printed}");
        assert!(
            printed.contains(&format!("versus match {game} {spec} builtin:greedy")),
            "{printed}"
        );
        for (seed, opponent, seat) in [(1, "random", 0), (2, "greedy", 1)] {
            let seed = seed.to_string();
            let opponent = format!("builtin:{opponent}");
            let mut agents = [spec.as_str(), opponent.as_str()];
            if seat == 1 {
                agents.swap(0, 1);
            }
            let args = ["match", game, agents[0], agents[1], "--seed", &seed, "--json"];
            let played = versus(&cache, &args);
            assert!(played.status.success(), "{lang}: {}", text(&played.stderr));
            let summary: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
            let faults = &summary["outcome"]["faults"];
            assert!(
                faults["first"].is_null() && faults["second"].is_null(),
                "{game} {lang} seed {seed}: {summary}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bacteria_war_starters_play_whole_games() {
    starters_play("bacteria-war");
}

#[test]
fn domineering_starters_play_whole_games() {
    starters_play("domineering");
}

#[test]
fn connexion_starters_play_whole_games() {
    starters_play("connexion");
}

#[test]
fn betris_starters_play_whole_games() {
    starters_play("betris-large");
}

/// A Domineering bot that passes every turn, in Python: it says on standard
/// error what its data.bin holds (its first line and its size), and stops
/// before `OK` when there is none.
const DATA_READER: &str = r#"import sys
try:
    data = open("data.bin", "rb").read()
except OSError as e:
    print("no data.bin:", e, file=sys.stderr)
    sys.exit(3)
print("data.bin:", data.split(b"\n")[0].decode(), len(data), "bytes", file=sys.stderr)
for line in sys.stdin:
    if line.startswith("READY"):
        print("OK", flush=True)
    elif line.startswith("TURN"):
        print("MOVE -1 -1", flush=True)
    elif line.startswith("FINISH"):
        break
"#;

/// Plays a Domineering game of `spec` against `random`; the record's text.
fn play_recorded(cache: &Path, dir: &Path, spec: &str) -> (Output, String) {
    let record = dir.join("record.jsonl");
    let _ = std::fs::remove_file(&record);
    let played = versus(
        cache,
        &[
            "match",
            "domineering",
            spec,
            "builtin:random",
            "--seed",
            "5",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    (played, std::fs::read_to_string(&record).unwrap_or_default())
}

#[test]
fn data_bin_is_there_at_run_time_and_not_at_compile_time() {
    let dir = folder("data");
    let cache = dir.join("cache");
    std::fs::write(dir.join("reader.py"), DATA_READER).unwrap();
    // Exactly the limit, 10 MiB, is accepted; its first line names it.
    let mut data = b"weights-v1\n".to_vec();
    data.resize(10 * 1024 * 1024, b'w');
    std::fs::write(dir.join("weights.bin"), &data).unwrap();
    // A relative data file is beside the source.
    let spec = format!("src:{}?data=weights.bin", dir.join("reader.py").display());
    let (played, record) = play_recorded(&cache, &dir, &spec);
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert!(record.contains("data.bin: weights-v1 10485760 bytes"), "{record}");
    assert!(text(&played.stdout).contains("result"), "{}", text(&played.stdout));
    // Without a data file the same program finds none.
    let bare = format!("src:{}", dir.join("reader.py").display());
    let (_, record) = play_recorded(&cache, &dir, &bare);
    assert!(record.contains("no data.bin"), "{record}");
    // Programs that want data.bin while they are compiled do not compile,
    // though the game gives them one: C's #include, Rust's include_bytes!,
    // Go's embed.
    std::fs::write(dir.join("small.bin"), "42").unwrap();
    let compile_time = [
        ("inc.c", "#include <stdio.h>\nint main(void) { printf(\"%d\\n\",\n#include \"data.bin\"\n); }\n"),
        ("inc.rs", "fn main() { println!(\"{}\", include_bytes!(\"data.bin\").len()); }\n"),
        ("embed.go", "package main\n\nimport _ \"embed\"\n\n//go:embed data.bin\nvar data []byte\n\nfunc main() { println(len(data)) }\n"),
    ];
    for (name, source) in compile_time {
        let path = dir.join(name);
        std::fs::write(&path, source).unwrap();
        let spec = format!("src:{}?data=small.bin", path.display());
        let (played, record) = play_recorded(&cache, &dir, &spec);
        assert!(played.status.success(), "{name}: {}", text(&played.stderr));
        let out = text(&played.stdout);
        assert!(out.contains("CE"), "{name}: {out}");
        assert!(
            record.contains("data.bin"),
            "{name}: the compiler names the missing file: {record}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn oversized_sources_and_data_files_are_refused_with_a_clear_message() {
    let dir = folder("oversize");
    let cache = dir.join("cache");
    let reader = dir.join("reader.py");
    std::fs::write(&reader, DATA_READER).unwrap();
    let mut big = DATA_READER.as_bytes().to_vec();
    big.resize(1024 * 1024 + 1, b'\n');
    std::fs::write(dir.join("big.py"), &big).unwrap();
    std::fs::write(dir.join("big.bin"), vec![0u8; 10 * 1024 * 1024 + 1]).unwrap();
    let cases = [
        (
            format!("src:{}", dir.join("big.py").display()),
            "is 1048577 bytes; the limit is 1048576 bytes (1 MiB)",
        ),
        (
            format!("src:{}?data=big.bin", reader.display()),
            "is 10485761 bytes; the limit is 10485760 bytes (10 MiB)",
        ),
        (format!("src:{}?data=none.bin", reader.display()), "cannot read the data file"),
    ];
    for (spec, said) in cases {
        let played = versus(&cache, &["match", "domineering", &spec, "builtin:random"]);
        assert!(!played.status.success(), "{spec}");
        let stderr = text(&played.stderr);
        assert!(stderr.contains(said), "{spec}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_refuses_to_overwrite_and_names_unknown_languages() {
    let dir = folder("refuse");
    let cache = dir.join("cache");
    let target = dir.join("bot");
    let args = ["new", "domineering", "--lang", "python", target.to_str().unwrap()];
    assert!(versus(&cache, &args).status.success());
    std::fs::write(target.join("bot.py"), "my work").unwrap();
    let again = versus(&cache, &args);
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("already exists"), "{}", text(&again.stderr));
    assert_eq!(std::fs::read_to_string(target.join("bot.py")).unwrap(), "my work");
    let forced = versus(&cache, &[&args[..], &["--force"]].concat());
    assert!(forced.status.success());
    assert_ne!(std::fs::read_to_string(target.join("bot.py")).unwrap(), "my work");
    let unknown = versus(&cache, &["new", "domineering", "--lang", "cobol"]);
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("unknown language"), "{}", text(&unknown.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compile_error_loses_with_ce_and_a_missing_source_is_a_clear_error() {
    let dir = folder("ce");
    let cache = dir.join("cache");
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "int main(void) { return undeclared; }\n").unwrap();
    let record = dir.join("r.jsonl");
    let spec = format!("src:{}", bad.display());
    let played = versus(
        &cache,
        &[
            "match",
            "bacteria-war",
            &spec,
            "builtin:random",
            "--seed",
            "1",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    assert!(played.status.success(), "{}", text(&played.stderr));
    let out = text(&played.stdout);
    assert!(out.contains("CE: main.c:1:"), "{out}");
    assert!(out.contains("result 0-1"), "{out}");
    let record = std::fs::read_to_string(&record).unwrap();
    assert!(record.contains("undeclared"), "the compiler's output is in the record");
    // A source that is not there, or whose language is unknown, is the
    // user's mistake: said once, no game.
    let missing = versus(&cache, &["match", "bacteria-war", "src:/no/such.cpp", "builtin:random"]);
    assert!(!missing.status.success());
    let said = text(&missing.stderr);
    assert_eq!(said.matches("No such file").count(), 1, "{said}");
    let command = versus(&cache, &["match", "domineering", "./missing", "builtin:random"]);
    let said = text(&command.stderr);
    assert!(!command.status.success());
    assert_eq!(said.matches("No such file").count(), 1, "{said}");
    let odd = dir.join("bot.txt");
    std::fs::write(&odd, "print('hi')").unwrap();
    let unknown = versus(
        &cache,
        &["match", "bacteria-war", &format!("src:{}", odd.display()), "builtin:random"],
    );
    assert!(text(&unknown.stderr).contains("give --lang"), "{}", text(&unknown.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_cgroups_versus_says_so_once_and_the_sampler_still_judges() {
    let dir = folder("fallback");
    let cache = dir.join("cache");
    let grab = dir.join("grab.py");
    std::fs::write(
        &grab,
        "import sys\nfor line in sys.stdin:\n    if line.startswith('READY'):\n        print('OK', flush=True)\n    elif line.startswith('TURN'):\n        hoard = b'x' * (2 << 30)\n        print('MOVE -1 -1', flush=True)\n",
    )
    .unwrap();
    let spec = format!("src:{}", grab.display());
    let played = Command::new(VERSUS)
        .env("VERSUS_CACHE", &cache)
        .env("VERSUS_CGROUPS", "off")
        .args(["match", "domineering", &spec, "builtin:greedy", "--seed", "2", "--json"])
        .output()
        .unwrap();
    let said = text(&played.stderr);
    assert_eq!(said.matches("no cgroups").count(), 1, "{said}");
    let summary: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    assert_eq!(summary["outcome"]["faults"]["first"]["kind"], "memory_limit", "{summary}");
    let doctor = Command::new(VERSUS).env("VERSUS_CGROUPS", "off").arg("doctor").output().unwrap();
    assert!(text(&doctor.stdout).contains("cgroups:          none"), "{}", text(&doctor.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}
