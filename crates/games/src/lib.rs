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
}
