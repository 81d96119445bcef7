//! Runtime CPU dispatch: the hot loops are compiled several times, once per x86-64
//! microarchitecture level, and the best level the CPU supports is chosen once, at the first
//! call; other architectures run the one portable build.
//!
//! [`multiversion!`] defines a function whose body is compiled once per level, with the level's
//! instructions enabled (`#[target_feature]`), and dispatches each call. What the body calls is
//! compiled that way too only where it is inlined into it, so the code below the entry points is
//! `#[inline(always)]` all the way down (the generator's entry points, whole
//! playouts, perft, the batch's step and write). What matters most, measured on this crate:
//! `popcnt` (v2) for counting slots, BMI1/2 (v3) for walking their bits, and AVX2 (v3) for
//! the word-wise operations on cell sets and slot sets.
//!
//! `BLOKUS_CPU_LEVEL` (`x86-64`, `v2`, `v3`, `v4`, or `x86-64-v2` and so on) forces a lower
//! level than the CPU's best, for tests and benchmarks; a level the CPU lacks is refused.
//!
//! This module holds the crate's only `unsafe` code: calling a function compiled for
//! instructions the CPU may lack is unsafe. It is written once, in [`multiversion!`], and each
//! call is made only after the level was checked against the CPU.
#![allow(unsafe_code)]

use std::fmt;
use std::sync::OnceLock;

/// An instruction-set level the hot loops are compiled for.
///
/// ```
/// use blokus_core::{cpu_level, CpuLevel};
/// let level = cpu_level();
/// assert!(CpuLevel::supported().contains(&level));
/// assert_eq!(CpuLevel::parse(level.name()), Ok(level));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpuLevel {
    /// The architecture's baseline: x86-64 (SSE2), or the portable build elsewhere.
    Baseline,
    /// x86-64-v2: adds POPCNT, SSE3, SSSE3, SSE4.1, SSE4.2, CMPXCHG16B.
    V2,
    /// x86-64-v3: adds AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, XSAVE.
    V3,
    /// x86-64-v4: adds AVX-512 F, BW, CD, DQ and VL.
    V4,
}

/// Why `BLOKUS_CPU_LEVEL` could not be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuLevelError(pub String);

impl fmt::Display for CpuLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CpuLevelError {}

/// The environment variable that forces a level.
pub const CPU_LEVEL_VAR: &str = "BLOKUS_CPU_LEVEL";

impl CpuLevel {
    /// Every level, lowest first.
    pub const ALL: [CpuLevel; 4] = [CpuLevel::Baseline, CpuLevel::V2, CpuLevel::V3, CpuLevel::V4];

    /// The level's name: `x86-64`, `x86-64-v2`, `x86-64-v3`, `x86-64-v4`; on other
    /// architectures the baseline is named after the architecture (`aarch64`).
    pub fn name(self) -> &'static str {
        match self {
            CpuLevel::Baseline if cfg!(target_arch = "x86_64") => "x86-64",
            CpuLevel::Baseline => std::env::consts::ARCH,
            CpuLevel::V2 => "x86-64-v2",
            CpuLevel::V3 => "x86-64-v3",
            CpuLevel::V4 => "x86-64-v4",
        }
    }

    /// Reads a level's name, as [`CpuLevel::name`] writes it or short (`v2`, `v3`, `v4`;
    /// `baseline`, `x86-64` or `v1` for the baseline), in any case.
    ///
    /// ```
    /// use blokus_core::CpuLevel;
    /// assert_eq!(CpuLevel::parse("V3"), Ok(CpuLevel::V3));
    /// assert!(CpuLevel::parse("v5").unwrap_err().0.contains("x86-64-v4"));
    /// ```
    pub fn parse(text: &str) -> Result<CpuLevel, CpuLevelError> {
        let t = text.trim().to_ascii_lowercase();
        let level = match t.strip_prefix("x86-64-").unwrap_or(&t) {
            "x86-64" | "baseline" | "v1" => Some(CpuLevel::Baseline),
            "v2" => Some(CpuLevel::V2),
            "v3" => Some(CpuLevel::V3),
            "v4" => Some(CpuLevel::V4),
            other if other == std::env::consts::ARCH => Some(CpuLevel::Baseline),
            _ => None,
        };
        level.ok_or_else(|| {
            CpuLevelError(format!(
                "unknown CPU level {text:?} (known: x86-64, x86-64-v2, x86-64-v3, x86-64-v4, \
                 or v2, v3, v4)"
            ))
        })
    }

    /// The levels this CPU can run, lowest first (only the baseline off x86-64).
    pub fn supported() -> Vec<CpuLevel> {
        CpuLevel::ALL
            .into_iter()
            .filter(|&l| l.missing_features().is_empty())
            .collect()
    }

    /// The instructions of this level the CPU lacks (none: it can run the level).
    pub fn missing_features(self) -> Vec<&'static str> {
        features::missing(self)
    }
}

impl fmt::Display for CpuLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The level the hot loops run at: the best this CPU supports, or the one `BLOKUS_CPU_LEVEL`
/// asks for; chosen at the first call and the same for the rest of the process.
///
/// A bad `BLOKUS_CPU_LEVEL` (an unknown name, or a level this CPU lacks) is an error here; the
/// hot loops panic with its message when they first run, so call this first where a bad
/// setting must be reported without a panic (the Python extension does when it is imported).
///
/// ```
/// use blokus_core::try_cpu_level;
/// // Unset here, so the best level this CPU supports.
/// assert_eq!(try_cpu_level().unwrap().missing_features(), Vec::<&str>::new());
/// ```
pub fn try_cpu_level() -> Result<CpuLevel, CpuLevelError> {
    static CHOSEN: OnceLock<Result<CpuLevel, CpuLevelError>> = OnceLock::new();
    CHOSEN.get_or_init(choose).clone()
}

/// [`try_cpu_level`], panicking with its message on a bad `BLOKUS_CPU_LEVEL`.
///
/// ```
/// let level = blokus_core::cpu_level();
/// println!("move generation runs at {level}");
/// ```
pub fn cpu_level() -> CpuLevel {
    try_cpu_level().unwrap_or_else(|e| panic!("{e}"))
}

fn choose() -> Result<CpuLevel, CpuLevelError> {
    let best = CpuLevel::supported()
        .last()
        .copied()
        .unwrap_or(CpuLevel::Baseline);
    let Ok(asked) = std::env::var(CPU_LEVEL_VAR) else {
        return Ok(best);
    };
    let level =
        CpuLevel::parse(&asked).map_err(|e| CpuLevelError(format!("{CPU_LEVEL_VAR}: {e}")))?;
    let missing = level.missing_features();
    if missing.is_empty() {
        return Ok(level);
    }
    let have = if cfg!(target_arch = "x86_64") {
        format!("this CPU runs {} at best", best.name())
    } else {
        format!("{} has only its portable build", std::env::consts::ARCH)
    };
    Err(CpuLevelError(format!(
        "{CPU_LEVEL_VAR}={asked}: this CPU lacks {} of {} ({have})",
        missing.join(", "),
        level.name()
    )))
}

/// The chosen level as the hot loops read it: a byte, 0 until chosen (a bad setting panics
/// then, with [`cpu_level`]'s message).
#[inline(always)]
pub(crate) fn level() -> CpuLevel {
    use std::sync::atomic::{AtomicU8, Ordering};
    static LEVEL: AtomicU8 = AtomicU8::new(0);
    match LEVEL.load(Ordering::Relaxed) {
        1 => CpuLevel::Baseline,
        2 => CpuLevel::V2,
        3 => CpuLevel::V3,
        4 => CpuLevel::V4,
        _ => {
            let l = cpu_level();
            LEVEL.store(l as u8 + 1, Ordering::Relaxed);
            l
        }
    }
}

/// Defines a function compiled once per level, dispatched on the chosen level at each call:
///
/// ```text
/// multiversion! {
///     /// Docs.
///     pub(crate) fn count_moves(pos: &Position, t: &Tables) -> usize { ... }
/// }
/// ```
///
/// The body is written out in a function per level (`#[target_feature]`), so that it is
/// compiled with the level's instructions along with everything it inlines; the hot code below
/// an entry point is `#[inline(always)]` for that reason (a call that is not inlined runs the
/// baseline build of its callee). The function called is a small dispatcher (a byte read and
/// a direct call), so entry points may call each other; the copies are never inlined, so an
/// entry point called from another is one call, not four copies of its body in each copy of
/// the caller. Arguments are plain names; no
/// generics but `impl Trait` arguments.
///
/// The `unsafe` call of each level's copy is written here, once, and allowed in the
/// dispatcher it expands to: the copy is called only when [`level`] found the CPU to have
/// every feature of the level.
macro_rules! multiversion {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$attr])*
        #[inline(always)]
        #[allow(unsafe_code)]
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(never)]
            fn baseline($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b")]
                #[inline(never)]
                unsafe fn v2($($arg: $ty),*) $(-> $ret)? $body
                #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,f16c,fma,lzcnt,movbe,xsave")]
                #[inline(never)]
                unsafe fn v3($($arg: $ty),*) $(-> $ret)? $body
                #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,f16c,fma,lzcnt,movbe,xsave,avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
                #[inline(never)]
                unsafe fn v4($($arg: $ty),*) $(-> $ret)? $body
                match $crate::cpu::level() {
                    // SAFETY: `level()` is V4 only if the CPU has every feature of x86-64-v4
                    // (`features::missing` checked each with `is_x86_feature_detected!`).
                    $crate::cpu::CpuLevel::V4 => unsafe { v4($($arg),*) },
                    // SAFETY: as above, for x86-64-v3.
                    $crate::cpu::CpuLevel::V3 => unsafe { v3($($arg),*) },
                    // SAFETY: as above, for x86-64-v2.
                    $crate::cpu::CpuLevel::V2 => unsafe { v2($($arg),*) },
                    $crate::cpu::CpuLevel::Baseline => baseline($($arg),*),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                baseline($($arg),*)
            }
        }
    };
}
pub(crate) use multiversion;

mod features {
    //! Which features of a level the CPU lacks.

    use super::CpuLevel;

    #[cfg(target_arch = "x86_64")]
    pub(super) fn missing(level: CpuLevel) -> Vec<&'static str> {
        let mut missing = Vec::new();
        macro_rules! check {
            ($($f:tt),*) => {
                $(if !std::arch::is_x86_feature_detected!($f) {
                    missing.push($f);
                })*
            };
        }
        if level >= CpuLevel::V2 {
            check!("popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "cmpxchg16b");
        }
        if level >= CpuLevel::V3 {
            check!("avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave");
        }
        if level >= CpuLevel::V4 {
            check!("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl");
        }
        missing
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn missing(level: CpuLevel) -> Vec<&'static str> {
        match level {
            CpuLevel::Baseline => Vec::new(),
            _ => vec!["x86-64"],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for l in CpuLevel::ALL {
            assert_eq!(CpuLevel::parse(l.name()), Ok(l));
        }
        assert_eq!(CpuLevel::parse("x86-64-V2"), Ok(CpuLevel::V2));
        assert_eq!(CpuLevel::parse(" v1 "), Ok(CpuLevel::Baseline));
        assert!(CpuLevel::parse("x86-64-v5").is_err());
        assert!(CpuLevel::parse("").is_err());
    }

    #[test]
    fn the_levels_a_cpu_supports_are_the_lowest_ones() {
        let supported = CpuLevel::supported();
        assert_eq!(supported[0], CpuLevel::Baseline);
        assert_eq!(supported, CpuLevel::ALL[..supported.len()]);
    }

    multiversion! {
        fn ones(words: &[u64]) -> u32 {
            words.iter().map(|w| w.count_ones()).sum()
        }
    }

    #[test]
    fn a_multiversioned_function_computes_what_its_body_says() {
        assert_eq!(ones(&[u64::MAX, 5, 0]), 66);
    }
}
