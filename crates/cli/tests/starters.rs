//! Every starter bot, as a contestant gets it from `versus new`, compiles in
//! the sandbox and plays whole games against `builtin:random` and
//! `builtin:greedy` from both seats with no fault.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSUS: &str = env!("CARGO_BIN_EXE_versus");
const LANGUAGES: [(&str, &str); 5] = [
    ("c", "bot.c"),
    ("cpp", "bot.cpp"),
    ("python", "bot.py"),
    ("rust", "bot.rs"),
    ("java", "Main.java"),
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

fn starters_play(game: &str) {
    let dir = folder(game);
    let cache = dir.join("cache");
    for (lang, file) in LANGUAGES {
        let bot = dir.join(lang);
        let made = versus(&cache, &["new", game, "--lang", lang, bot.to_str().unwrap()]);
        assert!(made.status.success(), "{}", text(&made.stderr));
        let printed = text(&made.stdout);
        let path = bot.join(file);
        let spec = format!("src:{}", path.display());
        assert!(path.is_file(), "{printed}");
        assert!(
            printed.contains(&format!("versus match {game} {spec} builtin:greedy")),
            "{printed}"
        );
        for (seed, opponent, seat) in [(1, "random", 0), (2, "greedy", 1), (3, "greedy", 0)] {
            let seed = seed.to_string();
            let mut agents = [spec.as_str(), opponent];
            let opponent = format!("builtin:{opponent}");
            agents[1] = &opponent;
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
