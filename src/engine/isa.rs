//! The instruction set: the one choice of vector forms (the best the processor has, or a smaller
//! one named by `ANSATZ_ISA`), and the one dispatch point that runs a `Kernel` in the forms
//! chosen. Each form's feature list is written once, below (`features!`); the detection and
//! every `#[target_feature]` of the crate are generated from it here, so a form never runs on a
//! processor that lacks a feature its code was compiled for, and no other file names one.
//!
//! | form | features | `Forms` |
//! |---|---|---|
//! | AVX-512 with VBMI2 | `bmi1,bmi2,lzcnt,popcnt`, `avx512f,avx512cd,avx512vl,avx512bw,avx512dq`, `avx512vbmi2` | `Avx512Vbmi2` |
//! | AVX-512 | `bmi1,bmi2,lzcnt,popcnt`, `avx512f,avx512cd,avx512vl,avx512bw,avx512dq` | `Avx512` |
//! | AVX2 | `bmi1,bmi2,lzcnt,popcnt`, `avx2` | `Avx2` |
//! | portable | none: plain Rust, any processor (ARM included) | `Portable` |
//!
//! Which lane loop each form runs, and in how many groups, is its `Forms` constants: the table
//! of `engine/mod.rs` is held to them by a test.

use crate::card::Card;
use crate::engine::vector::{self, Funnel, Vector};

/// The instruction sets the vector forms are compiled for, as `ANSATZ_ISA` and the reports name
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    Avx512,
    Avx2,
    Portable,
}

impl Isa {
    /// Every instruction set, best first.
    pub const ALL: [Isa; 3] = [Isa::Avx512, Isa::Avx2, Isa::Portable];

    /// What this processor runs best (detected once), or what the environment variable
    /// `ANSATZ_ISA` (`avx512`, `avx2` or `portable`) asks for when the processor has it, so the
    /// engines can be compared on any machine; the answers are the same whichever runs.
    pub fn get() -> Isa {
        Form::get().isa()
    }

    /// Whether the processor has this instruction set's features (tests run every one it has).
    pub fn supported(self) -> bool {
        match self {
            Isa::Portable => true,
            Isa::Avx2 => Form::Avx2.detected(),
            Isa::Avx512 => Form::Avx512.detected(),
        }
    }

    /// The name `ANSATZ_ISA` and the reports spell.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Avx512 => "avx512",
            Isa::Avx2 => "avx2",
            Isa::Portable => "portable",
        }
    }

    /// Whether the AVX-512 forms may also use VBMI2 (its funnel shifts: the split lanes): only
    /// when [`Isa::get`] is AVX-512, so `ANSATZ_ISA=avx2` turns it off too.
    pub fn vbmi2() -> bool {
        Form::get() == Form::Avx512Vbmi2
    }
}

/// One set of vector forms compiled for one feature list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Avx512Vbmi2,
    Avx512,
    Avx2,
    Portable,
}

impl Form {
    /// Every form, best first.
    pub const ALL: [Form; 4] = [Form::Avx512Vbmi2, Form::Avx512, Form::Avx2, Form::Portable];

    /// The form chosen for this process: the best the processor has among those of
    /// `ANSATZ_ISA`'s instruction set and below (detected once).
    pub fn get() -> Form {
        static FORM: std::sync::OnceLock<Form> = std::sync::OnceLock::new();
        *FORM.get_or_init(|| {
            let most = match std::env::var("ANSATZ_ISA").as_deref() {
                Ok("portable") => Isa::Portable,
                Ok("avx2") => Isa::Avx2,
                _ => Isa::Avx512,
            };
            let allowed = |f: &Form| match most {
                Isa::Avx512 => true,
                Isa::Avx2 => f.isa() != Isa::Avx512,
                Isa::Portable => *f == Form::Portable,
            };
            Form::ALL
                .into_iter()
                .filter(allowed)
                .find(|f| f.detected())
                .unwrap_or(Form::Portable)
        })
    }

    /// The instruction set the form belongs to.
    pub fn isa(self) -> Isa {
        match self {
            Form::Avx512Vbmi2 | Form::Avx512 => Isa::Avx512,
            Form::Avx2 => Isa::Avx2,
            Form::Portable => Isa::Portable,
        }
    }

    /// Whether the processor has the form's features (detected once per form).
    pub fn detected(self) -> bool {
        static SEEN: std::sync::OnceLock<[bool; 4]> = std::sync::OnceLock::new();
        let seen = SEEN.get_or_init(|| Form::ALL.map(detect));
        seen[self as usize]
    }
}

/// The vector forms of one feature list, and how the lane engines use them: the loops of
/// random games and of the exhaustive search's batch each run in `G` groups stepped side by side
/// (0: the loop does not run in this form).
pub(crate) trait Forms {
    /// The form (what reports and tests name).
    const FORM: Form;
    /// `u64` lanes: eight with AVX-512, four with AVX2 and portably.
    type Wide: Vector<Elem = u64>;
    /// `u32` lanes: sixteen with AVX-512, eight with AVX2 and portably.
    type Narrow: Vector<Elem = u32>;
    /// `u32` lanes with funnel shifts, for the split planes (VBMI2's, or two shifts).
    type Split: Funnel<Elem = u32>;
    /// Random games: the split lanes (up to 60 cards and 16 face cards), the `u64` kinds loop
    /// (up to 31 face cards) and the planes loop (any deal).
    const RANDOM_SPLIT: usize;
    const RANDOM_KINDS: usize;
    const RANDOM_PLANES: usize;
    /// The exhaustive search's fully fixed games: `u32` kinds lanes (decks of up to 34 cards),
    /// the split lanes and the `u64` kinds lanes (larger decks); none in the portable form, whose
    /// games are played one by one (faster than plain lanes).
    const TALLY_NARROW: usize;
    const TALLY_SPLIT: usize;
    const TALLY_WIDE: usize;
    /// The face planes of 64 slots of cards, bit `j` for slot `j`: face, `(penalty - 1) & 1` and
    /// `(penalty - 1) >> 1`.
    ///
    /// # Safety
    /// The processor has the forms' features (as for every method below).
    unsafe fn planes(buf: &[Card; 64]) -> (u64, u64, u64);
    /// A shuffle's draws of `crate::rng::batch_draws`: true when `js` holds them, false to
    /// shuffle with the plain loop.
    ///
    /// # Safety
    /// As [`Forms::planes`].
    unsafe fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool;
}

/// Work to run in the vector forms chosen ([`dispatch`]).
pub(crate) trait Kernel {
    type Out;
    /// Runs in the forms `F`.
    ///
    /// # Safety
    /// The processor has `F`'s features.
    unsafe fn run<F: Forms>(self) -> Self::Out;
}

/// The forms of AVX-512 with VBMI2.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512Vbmi2;
/// The forms of AVX-512 (without VBMI2: no split lanes).
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512;
/// The forms of AVX2.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2;
/// The portable forms: plain Rust, any processor.
pub(crate) struct Portable;

#[cfg(target_arch = "x86_64")]
impl Forms for Avx512Vbmi2 {
    const FORM: Form = Form::Avx512Vbmi2;
    type Wide = vector::Avx512U64x8;
    type Narrow = vector::Avx512U32x16;
    type Split = vector::Avx512U32x16;
    const RANDOM_SPLIT: usize = 1;
    const RANDOM_KINDS: usize = 2;
    const RANDOM_PLANES: usize = 2;
    const TALLY_NARROW: usize = 1;
    const TALLY_SPLIT: usize = 2;
    const TALLY_WIDE: usize = 2;
    #[inline(always)]
    unsafe fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
        // SAFETY: the caller's contract.
        unsafe { vector::avx512::planes(buf) }
    }
    #[inline(always)]
    unsafe fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
        !crate::rng::batch_draws(state, n, js)
    }
}

#[cfg(target_arch = "x86_64")]
impl Forms for Avx512 {
    const FORM: Form = Form::Avx512;
    type Wide = vector::Avx512U64x8;
    type Narrow = vector::Avx512U32x16;
    /// Not run (no VBMI2): AVX2's, which every AVX-512 processor has.
    type Split = vector::Avx2U32x8;
    const RANDOM_SPLIT: usize = 0;
    const RANDOM_KINDS: usize = 2;
    const RANDOM_PLANES: usize = 2;
    const TALLY_NARROW: usize = 1;
    const TALLY_SPLIT: usize = 0;
    const TALLY_WIDE: usize = 2;
    #[inline(always)]
    unsafe fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
        // SAFETY: the caller's contract.
        unsafe { vector::avx512::planes(buf) }
    }
    #[inline(always)]
    unsafe fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
        !crate::rng::batch_draws(state, n, js)
    }
}

#[cfg(target_arch = "x86_64")]
impl Forms for Avx2 {
    const FORM: Form = Form::Avx2;
    type Wide = vector::Avx2U64x4;
    type Narrow = vector::Avx2U32x8;
    type Split = vector::Avx2U32x8;
    const RANDOM_SPLIT: usize = 1;
    const RANDOM_KINDS: usize = 2;
    const RANDOM_PLANES: usize = 2;
    const TALLY_NARROW: usize = 1;
    const TALLY_SPLIT: usize = 1;
    const TALLY_WIDE: usize = 1;
    #[inline(always)]
    unsafe fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
        // SAFETY: the caller's contract.
        unsafe { vector::avx2::planes(buf) }
    }
    #[inline(always)]
    unsafe fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
        // SAFETY: the caller's contract.
        !unsafe { vector::avx2::draws(state, n, js) }
    }
}

impl Forms for Portable {
    const FORM: Form = Form::Portable;
    type Wide = vector::Plain64x4;
    type Narrow = vector::Plain32x8;
    type Split = vector::Plain32x8;
    // Plain lanes are slower than the scalar engine: production plays one game at a time
    // (`lanes::available`); the tests run these.
    const RANDOM_SPLIT: usize = 1;
    const RANDOM_KINDS: usize = 1;
    const RANDOM_PLANES: usize = 1;
    const TALLY_NARROW: usize = 0;
    const TALLY_SPLIT: usize = 0;
    const TALLY_WIDE: usize = 0;
    #[inline(always)]
    unsafe fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
        vector::portable::planes(buf)
    }
    #[inline(always)]
    unsafe fn draws(_: u64, _: usize, _: &mut [u8; 64]) -> bool {
        false
    }
}

/// Calls `$then!($($args)* "feature" ...)` with the feature list of a form: each feature string
/// of the crate is written here once, and the lists build on each other.
#[cfg(target_arch = "x86_64")]
macro_rules! features {
    (base => $then:ident!($($args:tt)*)) => {
        $then! { $($args)* "bmi1" "bmi2" "lzcnt" "popcnt" }
    };
    (avx2 => $then:ident!($($args:tt)*)) => {
        features! { base => $then!($($args)* "avx2") }
    };
    (avx512 => $then:ident!($($args:tt)*)) => {
        features! { base => $then!($($args)* "avx512f" "avx512cd" "avx512vl" "avx512bw" "avx512dq") }
    };
    (avx512vbmi2 => $then:ident!($($args:tt)*)) => {
        features! { avx512 => $then!($($args)* "avx512vbmi2") }
    };
}

/// Whether the processor has every feature listed.
#[cfg(target_arch = "x86_64")]
macro_rules! has_all {
    ($($f:tt)*) => {
        true $(&& std::arch::is_x86_feature_detected!($f))*
    };
}

/// A kernel's entry point compiled with the features listed: `fn $name<K: Kernel>(k: K)` runs
/// `k` in the forms `$forms`.
#[cfg(target_arch = "x86_64")]
macro_rules! entry {
    ($name:ident $forms:ident; $($f:tt)*) => {
        /// # Safety
        /// The processor has the features enabled here.
        $(#[target_feature(enable = $f)])*
        unsafe fn $name<K: Kernel>(k: K) -> K::Out {
            // SAFETY: the caller's contract.
            unsafe { k.run::<$forms>() }
        }
    };
}

#[cfg(target_arch = "x86_64")]
features! { avx512vbmi2 => entry!(run_avx512_vbmi2 Avx512Vbmi2;) }
#[cfg(target_arch = "x86_64")]
features! { avx512 => entry!(run_avx512 Avx512;) }
#[cfg(target_arch = "x86_64")]
features! { avx2 => entry!(run_avx2 Avx2;) }

/// Whether the processor has `form`'s features.
fn detect(form: Form) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match form {
            Form::Avx512Vbmi2 => features! { avx512vbmi2 => has_all!() },
            Form::Avx512 => features! { avx512 => has_all!() },
            Form::Avx2 => features! { avx2 => has_all!() },
            Form::Portable => true,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        form == Form::Portable
    }
}

/// Runs `k` in the forms chosen for this process ([`Form::get`]): the one dispatch point.
#[inline]
pub(crate) fn dispatch<K: Kernel>(k: K) -> K::Out {
    run_in(Form::get(), k).unwrap_or_else(|k| {
        // SAFETY: the portable forms need no feature.
        unsafe { k.run::<Portable>() }
    })
}

/// Runs `k` in the forms of `form` when the processor has them, else gives it back (tests that
/// hold every form to the reference on one machine).
pub(crate) fn run_in<K: Kernel>(form: Form, k: K) -> Result<K::Out, K> {
    if !form.detected() {
        return Err(k);
    }
    // SAFETY (each arm): the processor has the form's features, just checked.
    match form {
        #[cfg(target_arch = "x86_64")]
        Form::Avx512Vbmi2 => Ok(unsafe { run_avx512_vbmi2(k) }),
        #[cfg(target_arch = "x86_64")]
        Form::Avx512 => Ok(unsafe { run_avx512(k) }),
        #[cfg(target_arch = "x86_64")]
        Form::Avx2 => Ok(unsafe { run_avx2(k) }),
        Form::Portable => Ok(unsafe { k.run::<Portable>() }),
        #[cfg(not(target_arch = "x86_64"))]
        _ => Err(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the vector forms' own check ([`vector::checks::check_form`]) in every form this processor
    /// has: each op of each lane width against its scalar model.
    struct CheckForms;

    impl Kernel for CheckForms {
        type Out = ();
        unsafe fn run<F: Forms>(self) {
            // SAFETY: the caller's contract.
            unsafe {
                vector::checks::check_form(F::Wide::splat(0));
                vector::checks::check_form(F::Narrow::splat(0));
                vector::checks::check_form(F::Split::splat(0));
                vector::checks::check_funnel(F::Split::splat(0));
            }
            let mut rng = crate::rng::SplitMix64::new(19);
            for _ in 0..20_000 {
                let buf: [Card; 64] = std::array::from_fn(|_| rng.below(5) as Card);
                // SAFETY: the caller's contract.
                let planes = unsafe { F::planes(&buf) };
                assert_eq!(planes, vector::portable::planes(&buf), "{:?}", F::FORM);
            }
        }
    }

    #[test]
    fn every_vector_form_computes_what_its_scalar_model_does() {
        for form in Form::ALL {
            if run_in(form, CheckForms).is_err() {
                eprintln!("{form:?}: skipped, this processor lacks it");
            }
        }
    }

    /// The form chosen belongs to the instruction set asked for, where the processor has it.
    #[test]
    fn the_form_chosen_is_the_one_asked_for() {
        let want = match std::env::var("ANSATZ_ISA").as_deref() {
            Ok("portable") => Isa::Portable,
            Ok("avx2") if Isa::Avx2.supported() => Isa::Avx2,
            Ok("avx2") => Isa::Portable,
            _ => Isa::ALL.into_iter().find(|i| i.supported()).unwrap(),
        };
        assert_eq!(Isa::get(), want);
        assert!(Form::get().detected());
        assert_eq!(
            Isa::vbmi2(),
            want == Isa::Avx512 && Form::Avx512Vbmi2.detected()
        );
    }
}
