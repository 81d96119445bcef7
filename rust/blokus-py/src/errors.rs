//! The exceptions of `blokus.errors`, raised from Rust by type.
//!
//! The classes are defined once, in Python (so that they subclass `ValueError` or `TypeError`
//! and carry their docs); each is looked up the first time it is raised and kept. Fields a
//! caller branches on (`reason`, `cell`, `text`, `index`, `field`, ...) are set on the
//! exception, so no caller has to parse a message.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PySlice, PyString, PyType};
use pyo3::IntoPyObjectExt;

/// The most characters of a user's text that a message quotes.
const QUOTED: usize = 24;

/// An exception class of `blokus.errors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Blokus,
    InvalidMove,
    IllegalMove,
    InvalidPosition,
    UnknownVariant,
    InvalidVariant,
    InvalidArgument,
    InvalidType,
    Busy,
}

impl Class {
    /// Every class, with its name in `blokus.errors`.
    const ALL: [(Class, &'static str); 9] = [
        (Class::Blokus, "BlokusError"),
        (Class::InvalidMove, "InvalidMoveError"),
        (Class::IllegalMove, "IllegalMoveError"),
        (Class::InvalidPosition, "InvalidPositionError"),
        (Class::UnknownVariant, "UnknownVariantError"),
        (Class::InvalidVariant, "InvalidVariantError"),
        (Class::InvalidArgument, "InvalidArgumentError"),
        (Class::InvalidType, "InvalidTypeError"),
        (Class::Busy, "BusyError"),
    ];

    fn name(self) -> &'static str {
        Class::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("BlokusError", |(_, n)| n)
    }

    fn cell(self) -> &'static PyOnceLock<Py<PyType>> {
        static CELLS: [PyOnceLock<Py<PyType>>; 9] = [
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
        ];
        &CELLS[self as usize]
    }

    /// The Python class (looked up in `blokus.errors` once).
    fn class(self, py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
        self.cell().import(py, "blokus.errors", self.name())
    }

    /// An exception of this class with `message`.
    pub(crate) fn err(self, py: Python<'_>, message: impl Into<String>) -> PyErr {
        self.with(py, message, &[])
    }

    /// An exception of this class with `message` and the attributes `fields`.
    pub(crate) fn with(
        self,
        py: Python<'_>,
        message: impl Into<String>,
        fields: &[(&str, Bound<'_, PyAny>)],
    ) -> PyErr {
        let made = self.class(py).and_then(|cls| {
            let value = cls.call1((message.into(),))?;
            for (name, field) in fields {
                value.setattr(*name, field)?;
            }
            Ok(value)
        });
        match made {
            Ok(value) => PyErr::from_value(value),
            Err(failed) => failed,
        }
    }
}

/// `x` as a Python object for a field (`None` in the unheard-of case that it cannot be one).
pub(crate) fn value<'py>(py: Python<'py>, x: impl IntoPyObject<'py>) -> Bound<'py, PyAny> {
    x.into_bound_py_any(py)
        .unwrap_or_else(|_| py.None().into_bound(py))
}

/// At most a few dozen characters of a user's text, quoted, marked `...` when cut: a message
/// stays short however long the text.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// The text of a Python string that should be move text: one holding a lone surrogate (which
/// no UTF-8 text can) is an `InvalidMoveError` naming where, not a `UnicodeEncodeError`.
pub(crate) fn move_text<'a>(
    py: Python<'_>,
    text: &'a Bound<'_, PyString>,
) -> PyResult<Cow<'a, str>> {
    text.to_cow().map_err(|e| {
        let start: usize = e
            .value(py)
            .getattr("start")
            .and_then(|s| s.extract())
            .unwrap_or(0);
        // Everything before the first surrogate is text.
        let end = isize::try_from(start).unwrap_or(isize::MAX);
        let before: String = text
            .as_any()
            .get_item(PySlice::new(py, 0, end, 1))
            .and_then(|s| s.extract())
            .unwrap_or_default();
        let item = before.matches(',').count();
        let reason = format!(
            "character {} (in item {}) is a lone surrogate, not a character",
            start + 1,
            item + 1
        );
        Class::InvalidMove.with(
            py,
            format!("invalid move text: {reason}"),
            &[
                ("text", text.clone().into_any()),
                ("index", value(py, item)),
                ("reason", value(py, reason)),
            ],
        )
    })
}
