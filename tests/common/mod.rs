//! Helpers shared by the integration tests (each test binary uses some of them).
#![allow(dead_code)]

/// The insta settings of every snapshot test: snapshots in the top-level `snapshots/`
/// folder, named without the test module's prefix.
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// A xorshift generator: deterministic playouts from a printed seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
