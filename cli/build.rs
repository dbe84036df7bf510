//! Link settings of the `rex` binary.
//!
//! On Linux the binary is linked as a fixed-address executable (`-no-pie`) instead of a
//! position-independent one. `rex` links llama.cpp in for `rex fill`; as a PIE it carried
//! about 34,800 relative relocations that the dynamic loader applied at every start,
//! reading an 830 KB relocation table and copying 560 KB of `.data.rel.ro` pages, before
//! `main`. That was paid by every `rex run` and `rex check`, whether or not the model is
//! used. Without PIE the addresses are fixed at link time: about 150 fewer page faults and
//! 8% less CPU time for `rex run -c 1` (perf stat, task-clock).
//!
//! Only the `rex` binary gets the flag (`rustc-link-arg-bins`), so no other crate's
//! compilation, nor the cached llama.cpp build, changes. The crates are still compiled as
//! position-independent code, which a fixed-address executable links as it is; `cc` (gcc
//! or clang, as Debian installs them) takes the last of rustc's `-pie` and this `-no-pie`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
