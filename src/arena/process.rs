//! The engine's process: started as the leader of a process group of its own, with its input and
//! output piped to us, and ended as a whole group (the engine and everything it started), so
//! nothing it started outlives the match.

use super::spec::EngineSpec;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Starts the engine of `spec` in a process group of its own, its input and output piped.
pub fn spawn(spec: &EngineSpec) -> io::Result<Child> {
    Command::new(&spec.program)
        .args(&spec.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
}

/// Waits up to `grace` for the engine to exit.
pub fn wait_exit(child: &mut Child, grace: Duration) {
    let until = Instant::now() + grace;
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// How long an engine has to exit after `quit`.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long an engine's process group has to end after TERM before it is killed.
const TERM_GRACE: Duration = Duration::from_millis(500);

/// Ends the engine's process group (the engine and every process it started that stayed in it):
/// TERM, then KILL for whatever is left after [`TERM_GRACE`]; the engine itself is reaped.
pub fn end_group(child: &mut Child) {
    use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
    // The engine was started as the leader of a group of its own, whose id is its process id.
    let group = Pid::from_child(child);
    let _ = kill_process_group(group, Signal::TERM);
    let until = Instant::now() + TERM_GRACE;
    loop {
        let engine_gone = matches!(child.try_wait(), Ok(Some(_)));
        if engine_gone && test_kill_process_group(group).is_err() {
            return;
        }
        if Instant::now() >= until {
            break;
        }
        thread::sleep(Duration::from_millis(10));
    }
    let _ = kill_process_group(group, Signal::KILL);
    let _ = child.kill();
    let _ = child.wait();
}
