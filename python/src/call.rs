//! How a call crosses into the library and back: errors become Python exceptions (bad input a
//! `ValueError` with the CLI's message, anything else a `RuntimeError`, a panic caught and never
//! let across), long calls run on a worker thread without the GIL while the calling thread
//! watches for Ctrl-C, and a cancelled call's work is stopped at its next progress report.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Once};
use std::time::Duration;

use ansatz::run::RunError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// What goes wrong in a call.
#[derive(Debug)]
pub enum Error {
    /// Bad input, in the words the CLI uses for it (its exit code 2).
    Input(String),
    /// A failure of this machine (a file that cannot be written) or of the library.
    Failed(String),
    /// Ctrl-C stopped the call.
    Cancelled,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn input(e: impl std::fmt::Display) -> Error {
        Error::Input(e.to_string())
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Error {
        match e {
            RunError::Input(m) => Error::Input(m),
            RunError::Failed(m) => Error::Failed(m),
        }
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Input(m) => PyValueError::new_err(m),
            Error::Failed(m) => PyRuntimeError::new_err(m),
            Error::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err(()),
        }
    }
}

/// The payload of the unwinding that stops a cancelled call's work: `resume_unwind` starts it
/// without the panic hook, so nothing is printed, and [`catch`] turns it into
/// [`Error::Cancelled`].
struct Cancelled;

/// A call's state, shared with the progress callbacks of its work: running, cancelled (Ctrl-C)
/// or finished.
#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicU8>);

const GOING: u8 = 0;
const CANCELLED: u8 = 1;
const FINISHED: u8 = 2;

impl Cancel {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed) == CANCELLED
    }

    /// Called from the library's progress callbacks: once Ctrl-C has cancelled the call, the
    /// worker thread that reports unwinds out of the search. The jobs' progress callbacks are
    /// called between units of work, outside their locks, and the rayon pools carry the unwinding
    /// to the call's thread after the other workers finish their own unit, so the whole search
    /// stops.
    pub fn check(&self) {
        if self.is_set() {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }

    /// Cancels a running call (counted in [`CANCELLING`] until its work has stopped); false when
    /// it had finished already.
    fn cancel(&self) -> bool {
        CANCELLING.fetch_add(1, Ordering::SeqCst);
        let ok = self
            .0
            .compare_exchange(GOING, CANCELLED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        if !ok {
            CANCELLING.fetch_sub(1, Ordering::SeqCst);
        }
        ok
    }

    /// Marks the work stopped, and ends its count in [`CANCELLING`] if it was cancelled.
    fn finish(&self) {
        if self.0.swap(FINISHED, Ordering::SeqCst) == CANCELLED {
            CANCELLING.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Calls cancelled but still unwinding: while there are any, the panic hook stays silent (a lock
/// poisoned by the unwinding may make another worker panic on its way out).
static CANCELLING: AtomicUsize = AtomicUsize::new(0);
/// Worker threads of long calls still running (`ansatz._running_calls()`, for the tests).
pub static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Installs, once, a panic hook that is silent while a cancelled call unwinds and otherwise the
/// hook that was there.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CANCELLING.load(Ordering::SeqCst) == 0 {
                before(info);
            }
        }));
    });
}

/// Runs `f`, catching a panic: the cancel payload becomes [`Error::Cancelled`], any other panic
/// a `RuntimeError` naming it (a bug in the library, never a crash of the interpreter).
pub fn catch<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) if payload.is::<Cancelled>() => Err(Error::Cancelled),
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            Err(Error::Failed(format!("internal error: {msg}")))
        }
    }
}

/// A short call: without the GIL, panics caught.
pub fn short<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T> + Send) -> PyResult<T> {
    Ok(py.detach(|| catch(f))?)
}

/// How often the calling thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);
/// How long a cancelled call waits for its work to stop before it returns anyway: with the poll,
/// KeyboardInterrupt comes within a second of Ctrl-C.
const GRACE: Duration = Duration::from_millis(800);

/// A long call: `work` runs on a worker thread with `argv` (the `ansatz` command equivalent to
/// the call, for a call that writes result files) as the command line they record, while this thread, without the GIL,
/// looks for signals every 50 ms. On Ctrl-C the cancel flag is set, the work stops at its next
/// progress report, and `KeyboardInterrupt` is raised once it has stopped, or after 0.8 s
/// (the worker then finishes unwinding on its own, detached).
pub fn long<T: Send + 'static>(
    py: Python<'_>,
    argv: Option<Vec<String>>,
    work: impl FnOnce(&Cancel) -> Result<T> + Send + 'static,
) -> PyResult<T> {
    let cancel = Cancel::default();
    let (tx, rx) = channel();
    let flag = cancel.clone();
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let spawned = std::thread::Builder::new()
        .name("ansatz-call".into())
        .spawn(move || {
            let r = catch(|| match argv {
                Some(argv) => ansatz::provenance::with_args(argv, || work(&flag)),
                None => work(&flag),
            });
            flag.finish();
            RUNNING.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        return Err(PyRuntimeError::new_err(format!(
            "starting a worker thread: {e}"
        )));
    }
    // The receiver goes into each wait and comes back (it is `Send`, not `Sync`).
    let mut rx = rx;
    loop {
        let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match got {
            Ok(r) => return Ok(r?),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the worker thread died"));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    if cancel.cancel() {
                        let _ = py.detach(move || rx.recv_timeout(GRACE));
                    }
                    return Err(interrupt);
                }
            }
        }
    }
}
