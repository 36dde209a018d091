//! FNV-1a, 64 bits: the check hash at the end of the files Quinto writes (network weights,
//! transposition table dumps), so that a damaged file is refused, never half-used.

/// A running FNV-1a hash, for files written or read piece by piece.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// The hash of `bytes` at once.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::default();
    hash.update(bytes);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_pieces_equal_the_whole() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut pieces = Fnv1a::default();
        pieces.update(b"foo");
        pieces.update(b"bar");
        assert_eq!(pieces.finish(), fnv1a(b"foobar"));
    }
}
