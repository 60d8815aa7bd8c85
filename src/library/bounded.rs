//! Bincode decoding of a payload with a bound on what it may claim, for every reader of a file
//! another run (or anyone) wrote: libraries, checkpoints, level checkpoints and shard files.
//!
//! Bincode reserves a string's declared length before it reads the string, so a few bytes
//! claiming a 70 GB string abort the process (the `library` fuzz target found it). Its limit
//! counts the bytes every decoded value claims in memory (8 for a `u64` written as one varint
//! byte, 16 for a `u128`, a string's length), so no real payload claims more than 16 times its
//! own length. The bound is that, rounded up: [`FACTOR`] times the payload, at least [`FLOOR`].

use serde::de::DeserializeOwned;

/// How many bytes a payload may claim per byte it holds (twice the most a real one does).
pub const FACTOR: usize = 32;
/// The bound of small payloads.
pub const FLOOR: usize = 1 << 20;

/// `payload` decoded as a `T`, with the bytes it used, or the decode error (a claim past the
/// bound is one: [`bincode::error::DecodeError::LimitExceeded`]).
pub fn decode<T: DeserializeOwned>(
    payload: &[u8],
) -> Result<(T, usize), bincode::error::DecodeError> {
    let bound = payload.len().saturating_mul(FACTOR).max(FLOOR);
    // The limit is a const parameter of bincode's configuration: the payload's bound picks the
    // smallest power of two at least as large.
    let bits = usize::BITS - (bound - 1).leading_zeros();
    macro_rules! by_bits {
        ($($b:literal)*) => {
            match bits {
                $($b => limited::<T, { 1usize << $b }>(payload),)*
                _ => limited::<T, { usize::MAX }>(payload),
            }
        };
    }
    by_bits!(20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40)
}

fn limited<T: DeserializeOwned, const LIMIT: usize>(
    payload: &[u8],
) -> Result<(T, usize), bincode::error::DecodeError> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    bincode::serde::decode_from_slice(payload, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode<T: serde::Serialize>(v: &T) -> Vec<u8> {
        bincode::serde::encode_to_vec(v, bincode::config::standard()).unwrap()
    }

    #[test]
    fn real_payloads_decode_within_the_bound() {
        // The densest claims a real payload makes: small u64s and u128s (one varint byte each,
        // claiming 8 and 16), empty strings, and a long string.
        let small: Vec<u64> = vec![1; 5_000_000];
        assert_eq!(decode::<Vec<u64>>(&encode(&small)).unwrap().0, small);
        let wide: Vec<u128> = vec![3; 3_000_000];
        assert_eq!(decode::<Vec<u128>>(&encode(&wide)).unwrap().0, wide);
        let empty = vec![String::new(); 100_000];
        assert_eq!(decode::<Vec<String>>(&encode(&empty)).unwrap().0, empty);
        let long = "J-".repeat(3_000_000);
        assert_eq!(decode::<String>(&encode(&long)).unwrap().0, long);
    }

    #[test]
    fn a_claim_past_the_bound_is_an_error_not_an_abort() {
        // A string declaring 2^40 bytes in a payload of 9 (varint tag 0xfd, then a u64).
        let mut payload = vec![0xfd];
        payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let err = decode::<String>(&payload).unwrap_err();
        assert!(
            matches!(err, bincode::error::DecodeError::LimitExceeded),
            "{err:?}"
        );
        // Just past the bound of a small payload, still refused; just within it, it reads on
        // (and runs out of bytes).
        let mut at = vec![0xfd];
        at.extend_from_slice(&((FLOOR as u64) + 1).to_le_bytes());
        assert!(matches!(
            decode::<String>(&at).unwrap_err(),
            bincode::error::DecodeError::LimitExceeded
        ));
        let mut within = vec![0xfc];
        within.extend_from_slice(&1000u32.to_le_bytes());
        assert!(!matches!(
            decode::<String>(&within).unwrap_err(),
            bincode::error::DecodeError::LimitExceeded
        ));
    }
}
