//! Secrets: passwords (Argon2id, salted, as PHC strings), and the random
//! values behind API tokens, session cookies and CSRF tokens. The store keeps
//! only SHA-256 digests of tokens and session ids, so a copy of the file
//! opens no account.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sha2::{Digest, Sha256};

use crate::ContestError;

/// The shortest password accepted.
pub const MIN_PASSWORD: usize = 8;
/// The longest (Argon2 takes any length; this bounds the work a request buys).
pub const MAX_PASSWORD: usize = 256;

/// The PHC string of `password` (Argon2id with the crate's default cost and
/// a fresh random salt).
pub fn hash_password(password: &str) -> Result<String, ContestError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| ContestError::Invalid(format!("cannot hash the password: {e}")))
}

/// Whether `password` matches the PHC string `stored`.
#[must_use]
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .is_ok_and(|hash| Argon2::default().verify_password(password.as_bytes(), &hash).is_ok())
}

/// 32 random bytes as 64 hex digits: a token, a session id, a CSRF token.
pub fn random_token() -> Result<String, ContestError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ContestError::Invalid(format!("no randomness from the system: {e}")))?;
    Ok(hex(&bytes))
}

/// A random u64 (seeds of games).
pub fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    // Without system randomness the clock still gives distinct seeds.
    if getrandom::fill(&mut bytes).is_err() {
        return crate::now_ms() as u64;
    }
    u64::from_le_bytes(bytes)
}

/// The digest the store keeps of a token or session id.
#[must_use]
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Lowercase hex.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two secrets in time that does not depend on where they differ.
#[must_use]
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_and_a_wrong_one_does_not() {
        let stored = hash_password("correct horse").unwrap();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(verify_password("correct horse", &stored));
        assert!(!verify_password("correct hors", &stored));
        assert!(!verify_password("correct horse", "not a phc string"));
        // Salted: the same password hashes differently.
        assert_ne!(stored, hash_password("correct horse").unwrap());
    }

    #[test]
    fn tokens_are_random_hex_and_digests_are_sha256() {
        let a = random_token().unwrap();
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, random_token().unwrap());
        // SHA-256("abc"), FIPS 180-2's example.
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }
}
