//! The one choice of instruction set: what the processor has, what `ANSATZ_ISA` asks for, and
//! the one list of features each vector form needs. Every engine that has vector forms asks
//! [`Isa::get`] and nothing else; each `#[target_feature]` of a form enables exactly the list
//! `Isa::detect` checks for it (`avx512` below, `avx2` below), so a form never runs on a
//! processor that lacks a feature its code was compiled for (a test of `tests/repo.rs` reads
//! every `#[target_feature]` of `src/` and holds it to these lists).
//!
//! | form | features (`#[target_feature]`) |
//! |---|---|
//! | AVX-512 | `avx512f,avx512cd,avx512vl,avx512bw,avx512dq,bmi1,bmi2,lzcnt,popcnt` |
//! | AVX-512 + VBMI2 (split lanes) | the AVX-512 list and `avx512vbmi2` ([`Isa::vbmi2`]) |
//! | AVX2 | `avx2,bmi1,bmi2,lzcnt,popcnt` |
//! | portable | none: plain Rust, any processor (ARM included) |

/// The vector instructions the lanes are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    Avx512,
    Avx2,
    Portable,
}

impl Isa {
    /// Every form, best first.
    pub const ALL: [Isa; 3] = [Isa::Avx512, Isa::Avx2, Isa::Portable];

    /// What this processor runs best (detected once), or what the environment variable
    /// `ANSATZ_ISA` (`avx512`, `avx2` or `portable`) asks for when the processor has it, so the
    /// engines can be compared on any machine; the answers are the same whichever runs.
    pub fn get() -> Isa {
        static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *ISA.get_or_init(|| {
            let best = Isa::detect();
            match std::env::var("ANSATZ_ISA").as_deref() {
                Ok("portable") => Isa::Portable,
                Ok("avx2") if best != Isa::Portable => Isa::Avx2,
                _ => best,
            }
        })
    }

    /// Whether the processor has this form's features (tests run every form it has).
    pub fn supported(self) -> bool {
        match self {
            Isa::Portable => true,
            Isa::Avx2 => Isa::detect() != Isa::Portable,
            Isa::Avx512 => Isa::detect() == Isa::Avx512,
        }
    }

    /// The form's name as `ANSATZ_ISA` and the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Avx512 => "avx512",
            Isa::Avx2 => "avx2",
            Isa::Portable => "portable",
        }
    }

    /// Whether the AVX-512 form may also use VBMI2 (the split lanes of the exhaustive search):
    /// only when [`Isa::get`] is AVX-512, so `ANSATZ_ISA=avx2` turns it off too.
    pub fn vbmi2() -> bool {
        static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *HAS.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                Isa::get() == Isa::Avx512 && std::arch::is_x86_feature_detected!("avx512vbmi2")
            }
            #[cfg(not(target_arch = "x86_64"))]
            false
        })
    }

    /// The best this processor has (the feature lists of the module head).
    fn detect() -> Isa {
        static BEST: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::is_x86_feature_detected as has;
                let avx2 =
                    has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt");
                if avx2
                    && has!("avx512f")
                    && has!("avx512cd")
                    && has!("avx512vl")
                    && has!("avx512bw")
                    && has!("avx512dq")
                {
                    return Isa::Avx512;
                }
                if avx2 {
                    return Isa::Avx2;
                }
            }
            Isa::Portable
        })
    }
}
