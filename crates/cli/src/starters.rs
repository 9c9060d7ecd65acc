//! `versus new`: the starter bots, one per game and language, as the
//! contest sites hand out sample code.

use std::fs;
use std::io::ErrorKind;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use versus_judge::Language;

/// Every starter: the game, its language, its text. PyPy shares Python's
/// text, LuaJIT Lua 5.4's (written in the subset both run), and TypeScript
/// JavaScript's (written to be valid TypeScript too).
pub(crate) const STARTERS: &[(&str, Language, &str)] = &[
    ("bacteria-war", Language::C, include_str!("../starters/bacteria-war/bot.c")),
    ("bacteria-war", Language::Cpp, include_str!("../starters/bacteria-war/bot.cpp")),
    ("bacteria-war", Language::Python, include_str!("../starters/bacteria-war/bot.py")),
    ("bacteria-war", Language::PyPy, include_str!("../starters/bacteria-war/bot.py")),
    ("bacteria-war", Language::Rust, include_str!("../starters/bacteria-war/bot.rs")),
    ("bacteria-war", Language::Java, include_str!("../starters/bacteria-war/Main.java")),
    ("bacteria-war", Language::Kotlin, include_str!("../starters/bacteria-war/Main.kt")),
    ("bacteria-war", Language::Go, include_str!("../starters/bacteria-war/bot.go")),
    ("bacteria-war", Language::JavaScript, include_str!("../starters/bacteria-war/bot.js")),
    ("bacteria-war", Language::TypeScript, include_str!("../starters/bacteria-war/bot.js")),
    ("bacteria-war", Language::Lua, include_str!("../starters/bacteria-war/bot.lua")),
    ("bacteria-war", Language::LuaJit, include_str!("../starters/bacteria-war/bot.lua")),
    ("bacteria-war", Language::CSharp, include_str!("../starters/bacteria-war/bot.cs")),
    ("domineering", Language::C, include_str!("../starters/domineering/bot.c")),
    ("domineering", Language::Cpp, include_str!("../starters/domineering/bot.cpp")),
    ("domineering", Language::Python, include_str!("../starters/domineering/bot.py")),
    ("domineering", Language::PyPy, include_str!("../starters/domineering/bot.py")),
    ("domineering", Language::Rust, include_str!("../starters/domineering/bot.rs")),
    ("domineering", Language::Java, include_str!("../starters/domineering/Main.java")),
    ("domineering", Language::Kotlin, include_str!("../starters/domineering/Main.kt")),
    ("domineering", Language::Go, include_str!("../starters/domineering/bot.go")),
    ("domineering", Language::JavaScript, include_str!("../starters/domineering/bot.js")),
    ("domineering", Language::TypeScript, include_str!("../starters/domineering/bot.js")),
    ("domineering", Language::Lua, include_str!("../starters/domineering/bot.lua")),
    ("domineering", Language::LuaJit, include_str!("../starters/domineering/bot.lua")),
    ("domineering", Language::CSharp, include_str!("../starters/domineering/bot.cs")),
    ("connexion", Language::C, include_str!("../starters/connexion/bot.c")),
    ("connexion", Language::Cpp, include_str!("../starters/connexion/bot.cpp")),
    ("connexion", Language::Python, include_str!("../starters/connexion/bot.py")),
    ("connexion", Language::PyPy, include_str!("../starters/connexion/bot.py")),
    ("connexion", Language::Rust, include_str!("../starters/connexion/bot.rs")),
    ("connexion", Language::Java, include_str!("../starters/connexion/Main.java")),
    ("connexion", Language::Kotlin, include_str!("../starters/connexion/Main.kt")),
    ("connexion", Language::Go, include_str!("../starters/connexion/bot.go")),
    ("connexion", Language::JavaScript, include_str!("../starters/connexion/bot.js")),
    ("connexion", Language::TypeScript, include_str!("../starters/connexion/bot.js")),
    ("connexion", Language::Lua, include_str!("../starters/connexion/bot.lua")),
    ("connexion", Language::LuaJit, include_str!("../starters/connexion/bot.lua")),
    ("connexion", Language::CSharp, include_str!("../starters/connexion/bot.cs")),
    ("betris-large", Language::C, include_str!("../starters/betris-large/bot.c")),
    ("betris-large", Language::Cpp, include_str!("../starters/betris-large/bot.cpp")),
    ("betris-large", Language::Python, include_str!("../starters/betris-large/bot.py")),
    ("betris-large", Language::PyPy, include_str!("../starters/betris-large/bot.py")),
    ("betris-large", Language::Rust, include_str!("../starters/betris-large/bot.rs")),
    ("betris-large", Language::Java, include_str!("../starters/betris-large/Main.java")),
    ("betris-large", Language::Kotlin, include_str!("../starters/betris-large/Main.kt")),
    ("betris-large", Language::Go, include_str!("../starters/betris-large/bot.go")),
    ("betris-large", Language::JavaScript, include_str!("../starters/betris-large/bot.js")),
    ("betris-large", Language::TypeScript, include_str!("../starters/betris-large/bot.js")),
    ("betris-large", Language::Lua, include_str!("../starters/betris-large/bot.lua")),
    ("betris-large", Language::LuaJit, include_str!("../starters/betris-large/bot.lua")),
    ("betris-large", Language::CSharp, include_str!("../starters/betris-large/bot.cs")),
];

/// The starter of `game` in `language`.
pub(crate) fn starter(game: &str, language: Language) -> Option<&'static str> {
    STARTERS.iter().find(|(g, l, _)| *g == game && *l == language).map(|(_, _, text)| *text)
}

pub(crate) fn write(
    game: &str,
    language: Language,
    dir: Option<PathBuf>,
    force: bool,
) -> Result<()> {
    let game = crate::find_game(game)?.name();
    let text =
        starter(game, language).ok_or_else(|| anyhow!("no {language} starter for {game}"))?;
    let dir = dir.unwrap_or_else(|| PathBuf::from(format!("{game}-{}", language.name())));
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(language.starter_name());
    let mut options = fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = match options.open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            bail!("{} already exists: keep it, or give --force to replace it", path.display())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot write {}", path.display())),
    };
    std::io::Write::write_all(&mut file, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {} ({} starter for {game})", path.display(), language.name());
    println!("try it, judged as the contest judges it (built and run in the sandbox):");
    // The extension names CPython, Lua 5.4 and JavaScript: the others say so.
    let lang = if Language::from_path(&path) == Some(language) {
        String::new()
    } else {
        format!("?lang={}", language.name())
    };
    println!("  versus match {game} src:{}{lang} builtin:greedy --seed 1", path.display());
    Ok(())
}
