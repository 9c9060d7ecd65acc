//! `strong-v1` (`builtin:strong-v1`): `strong` as it was when issue 16 opened
//! (search, evaluation and time rules), frozen as a copy so that every later
//! gain is measured against a level that cannot move.

pub mod search;
pub(crate) mod strong;
