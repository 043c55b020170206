//! The server under attack: `xq serve --port 0` started as a child, watched past the run's time
//! limit and ended; the open-file limits, and the server's memory and descriptors from `/proc`.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// `xq serve --port 0`, started here; killed when dropped, if it is still running.
pub(super) struct Server {
    pub(super) child: Arc<Mutex<Child>>,
    pub(super) pid: u32,
    pub(super) address: SocketAddr,
    /// The last lines the server wrote to stderr, and how many it wrote.
    stderr: Arc<Mutex<(VecDeque<String>, u64)>>,
}

impl Server {
    /// Starts the server and reads the address it listens on from its first line.
    pub(super) fn start(xq: &Path) -> Result<Server, String> {
        let mut child = Command::new(xq)
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", xq.display()))?;
        let pid = child.id();
        let (stdout, stderr_pipe) = (child.stdout.take(), child.stderr.take());
        let child = Arc::new(Mutex::new(child));
        let stderr = Arc::new(Mutex::new((VecDeque::new(), 0)));
        let mut server = Server {
            child,
            pid,
            address: SocketAddr::from(([127, 0, 0, 1], 0)),
            stderr: stderr.clone(),
        };
        if let Some(pipe) = stderr_pipe {
            thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    let mut tail = lock(&stderr);
                    tail.0.push_back(line);
                    tail.1 += 1;
                    if tail.0.len() > 5 {
                        tail.0.pop_front();
                    }
                }
            });
        }
        let (sender, first_line) = mpsc::channel();
        if let Some(pipe) = stdout {
            thread::spawn(move || {
                let mut lines = BufReader::new(pipe).lines();
                let _ = sender.send(lines.next());
                // The rest is read and dropped, so the server never blocks on a full pipe.
                for _ in lines {}
            });
        }
        let line = match first_line.recv_timeout(Duration::from_secs(10)) {
            Ok(Some(Ok(line))) => line,
            Ok(_) => return Err("the server wrote nothing and closed its output".into()),
            Err(_) => return Err("the server did not say where it listens within 10 s".into()),
        };
        server.address = line
            .trim()
            .strip_prefix("xq serve: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|a| a.parse::<SocketAddr>().ok())
            .ok_or_else(|| format!("the server's first line is not its address: {line:?}"))?;
        if !server.address.ip().is_loopback() {
            return Err(format!(
                "the server listens on {}: only a loopback address is attacked",
                server.address
            ));
        }
        Ok(server)
    }

    /// Whether the server has exited, and how.
    pub(super) fn exited(&self) -> Option<ExitStatus> {
        lock(&self.child).try_wait().ok().flatten()
    }

    /// Sends SIGTERM.
    pub(super) fn terminate(&self) -> Result<(), String> {
        use rustix::process::{Pid, Signal, kill_process};
        let mut child = lock(&self.child);
        if child.try_wait().ok().flatten().is_some() {
            return Err("the server had already exited".into());
        }
        kill_process(Pid::from_child(&child), Signal::TERM).map_err(|e| format!("SIGTERM: {e}"))
    }

    /// Prints what the server wrote to stderr, if anything.
    pub(super) fn report_stderr(&self) {
        let tail = lock(&self.stderr);
        if tail.1 > 0 {
            println!("server stderr: {} lines, the last:", tail.1);
            for line in &tail.0 {
                println!("  {line}");
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        end_child(&self.child);
    }
}

/// Kills the child (SIGKILL) if it is still running, and reaps it.
pub(super) fn end_child(child: &Mutex<Child>) {
    let mut child = lock(child);
    if child.try_wait().ok().flatten().is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The last resort: past `run_end`, the server is killed and this process exits.
pub(super) fn watch(child: Arc<Mutex<Child>>, finished: &AtomicBool, run_end: Instant) {
    while !finished.load(Ordering::SeqCst) {
        if Instant::now() >= run_end {
            end_child(&child);
            eprintln!("serve-attack: the run went past its time limit; the server was killed");
            std::process::exit(1);
        }
        thread::sleep(Duration::from_millis(100));
    }
}

/// A mutex's value, even if a thread panicked holding it.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Raises this process's open-file soft limit to the hard limit; the limit now, in words.
pub(super) fn raise_file_limit() -> String {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        let _ = setrlimit(Resource::Nofile, limit);
    }
    getrlimit(Resource::Nofile)
        .current
        .map_or("unlimited".to_string(), |n| n.to_string())
}

/// The server's open-file soft limit, from `/proc`.
pub(super) fn server_file_limit(pid: u32) -> Option<String> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3).map(str::to_string)
}

/// A process's resident memory in KiB, from `/proc`.
pub(super) fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// How many files a process has open, from `/proc`.
pub(super) fn open_files(pid: u32) -> Option<u64> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64)
}
