//! Tunable parameters of built-in agents, given in the agent's spec.
//!
//! A built-in agent declares its parameters ([`Game::params`]): a name, a
//! default and an inclusive range, and whether only whole numbers make sense.
//! A spec sets some of them after a `?`, joined by `&`:
//! `strong?tempo=480&soft_share=55`. Every value is checked against the
//! declaration before an agent is made, so a typo is an error, never a
//! silently ignored setting.

use thiserror::Error;

use crate::agent::ProtocolAgent;
use crate::game::Game;

/// One tunable parameter of a built-in agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Letters, digits and `_`.
    pub name: &'static str,
    pub default: f64,
    /// The smallest and largest values the agent accepts.
    pub min: f64,
    pub max: f64,
    /// Only whole numbers are accepted.
    pub integer: bool,
    /// What it changes, for `versus games --params`.
    pub about: &'static str,
}

/// A spec's parameters that cannot be used.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParamError {
    #[error("{game} has no built-in agent {name:?} (it has: {known})")]
    UnknownAgent { game: String, name: String, known: String },
    #[error("built-in agent {agent:?} has no parameter {name:?} ({known})")]
    UnknownParam { agent: String, name: String, known: String },
    #[error("parameter {name:?} of {agent:?} is given twice")]
    Repeated { agent: String, name: String },
    #[error("parameter setting {text:?} of {agent:?} is not NAME=VALUE")]
    Malformed { agent: String, text: String },
    #[error("parameter {name:?} of {agent:?}: {text:?} is not a number")]
    NotANumber { agent: String, name: String, text: String },
    #[error("parameter {name:?} of {agent:?} takes whole numbers, not {value}")]
    NotAnInteger { agent: String, name: String, value: f64 },
    #[error("parameter {name:?} of {agent:?} is {value}, outside its range [{min}, {max}]")]
    OutOfRange { agent: String, name: String, value: f64, min: f64, max: f64 },
}

/// A built-in spec split into the agent's name and its settings, if any:
/// `strong?tempo=4` gives `("strong", Some("tempo=4"))`.
#[must_use]
pub fn split_spec(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once('?') {
        Some((name, query)) => (name, Some(query)),
        None => (spec, None),
    }
}

/// Checks `value` for parameter `param` of `agent`.
pub fn check_value(agent: &str, param: &Param, value: f64) -> Result<(), ParamError> {
    if !(param.min..=param.max).contains(&value) {
        return Err(ParamError::OutOfRange {
            agent: agent.to_owned(),
            name: param.name.to_owned(),
            value,
            min: param.min,
            max: param.max,
        });
    }
    if param.integer && value.fract() != 0.0 {
        return Err(ParamError::NotAnInteger {
            agent: agent.to_owned(),
            name: param.name.to_owned(),
            value,
        });
    }
    Ok(())
}

/// The value of every parameter in `params`, in their order: the default
/// unless `query` (`NAME=VALUE&...`) sets it.
pub fn values(agent: &str, params: &[Param], query: Option<&str>) -> Result<Vec<f64>, ParamError> {
    let mut values: Vec<Option<f64>> = vec![None; params.len()];
    for setting in query.unwrap_or("").split('&').filter(|s| !s.is_empty()) {
        let Some((name, text)) = setting.split_once('=') else {
            return Err(ParamError::Malformed {
                agent: agent.to_owned(),
                text: setting.to_owned(),
            });
        };
        let Some(index) = params.iter().position(|p| p.name == name) else {
            let known = if params.is_empty() {
                "it has none".to_owned()
            } else {
                format!("it has: {}", params.iter().map(|p| p.name).collect::<Vec<_>>().join(", "))
            };
            return Err(ParamError::UnknownParam {
                agent: agent.to_owned(),
                name: name.to_owned(),
                known,
            });
        };
        if values[index].is_some() {
            return Err(ParamError::Repeated { agent: agent.to_owned(), name: name.to_owned() });
        }
        let value: f64 = text.parse().ok().filter(|v: &f64| v.is_finite()).ok_or_else(|| {
            ParamError::NotANumber {
                agent: agent.to_owned(),
                name: name.to_owned(),
                text: text.to_owned(),
            }
        })?;
        check_value(agent, &params[index], value)?;
        values[index] = Some(value);
    }
    Ok(values.iter().zip(params).map(|(value, param)| value.unwrap_or(param.default)).collect())
}

/// The built-in agent of `game` that `spec` (`NAME` or `NAME?SETTINGS`)
/// names, with its parameters set; `seed` drives its randomness.
pub fn builtin_agent(
    game: &dyn Game,
    spec: &str,
    seed: u64,
) -> Result<Box<dyn ProtocolAgent>, ParamError> {
    let (name, query) = split_spec(spec);
    let unknown = || ParamError::UnknownAgent {
        game: game.name().to_owned(),
        name: name.to_owned(),
        known: game.agent_names().join(", "),
    };
    if !game.agent_names().contains(&name) {
        return Err(unknown());
    }
    let values = values(name, game.params(name), query)?;
    game.agent_with(name, seed, &values).ok_or_else(unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: [Param; 2] = [
        Param { name: "depth", default: 3.0, min: 1.0, max: 9.0, integer: true, about: "" },
        Param { name: "share", default: 0.5, min: 0.0, max: 1.0, integer: false, about: "" },
    ];

    #[test]
    fn settings_override_defaults_in_declaration_order() {
        assert_eq!(values("a", &PARAMS, None).unwrap(), [3.0, 0.5]);
        assert_eq!(values("a", &PARAMS, Some("")).unwrap(), [3.0, 0.5]);
        assert_eq!(values("a", &PARAMS, Some("share=0.25&depth=7")).unwrap(), [7.0, 0.25]);
        assert_eq!(values("a", &PARAMS, Some("depth=9")).unwrap(), [9.0, 0.5]);
    }

    #[test]
    fn every_bad_setting_is_named() {
        let err = |query| values("a", &PARAMS, Some(query)).unwrap_err().to_string();
        assert_eq!(
            err("dept=4"),
            "built-in agent \"a\" has no parameter \"dept\" (it has: depth, share)"
        );
        assert_eq!(err("depth=4&depth=5"), "parameter \"depth\" of \"a\" is given twice");
        assert_eq!(err("depth"), "parameter setting \"depth\" of \"a\" is not NAME=VALUE");
        assert_eq!(err("share=half"), "parameter \"share\" of \"a\": \"half\" is not a number");
        assert_eq!(err("share=NaN"), "parameter \"share\" of \"a\": \"NaN\" is not a number");
        assert_eq!(err("depth=2.5"), "parameter \"depth\" of \"a\" takes whole numbers, not 2.5");
        assert_eq!(err("depth=10"), "parameter \"depth\" of \"a\" is 10, outside its range [1, 9]");
        assert_eq!(
            err("share=-0.1"),
            "parameter \"share\" of \"a\" is -0.1, outside its range [0, 1]"
        );
        let none = values("b", &[], Some("x=1")).unwrap_err().to_string();
        assert_eq!(none, "built-in agent \"b\" has no parameter \"x\" (it has none)");
    }

    #[test]
    fn specs_split_at_the_first_question_mark() {
        assert_eq!(split_spec("strong"), ("strong", None));
        assert_eq!(split_spec("strong?a=1&b=2"), ("strong", Some("a=1&b=2")));
    }
}
