//! The registry: every game the arena knows. Adding a game means adding its
//! crate and one line here.

use versus_core::Game;

/// All games, in the order they are listed to users.
#[must_use]
pub fn all() -> [&'static dyn Game; 4] {
    [
        &versus_bacteria::GAME,
        &versus_domineering::GAME,
        &versus_connexion::GAME,
        &versus_betris::GAME,
    ]
}

/// The game called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static dyn Game> {
    all().into_iter().find(|game| game.name() == name)
}

/// The names of all games, comma-separated, for messages.
#[must_use]
pub fn names() -> String {
    all().map(|game| game.name()).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_name_and_has_the_baselines() {
        for game in all() {
            assert_eq!(find(game.name()).map(|g| g.title()), Some(game.title()));
            for agent in ["random", "greedy"] {
                assert!(game.agent_names().contains(&agent), "{} lacks {agent}", game.name());
                assert!(game.agent(agent, 1).is_some());
            }
        }
        assert!(find("chess").is_none());
        assert_eq!(names(), "bacteria-war, domineering, connexion, betris-large");
    }

    #[test]
    fn every_declared_parameter_is_sound_and_accepted_at_both_ends() {
        let mut declared = 0;
        for game in all() {
            for name in game.agent_names() {
                let params = game.params(name);
                for (i, p) in params.iter().enumerate() {
                    declared += 1;
                    let at = format!("{} {name} {}", game.name(), p.name);
                    assert!(p.min < p.max && (p.min..=p.max).contains(&p.default), "{at}");
                    assert!(
                        !p.integer || [p.min, p.max, p.default].iter().all(|v| v.fract() == 0.0),
                        "{at}"
                    );
                    assert!(p.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{at}");
                    assert!(params[..i].iter().all(|q| q.name != p.name), "{at} twice");
                    for value in [p.min, p.max] {
                        let spec = format!("{name}?{}={value}", p.name);
                        assert!(
                            versus_core::builtin_agent(game, &spec, 1).is_ok(),
                            "{game_name} {spec}",
                            game_name = game.name()
                        );
                    }
                }
            }
        }
        // Bacteria War's strong has 11.
        assert!(declared >= 11);
    }
}
