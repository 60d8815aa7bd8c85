//! Cluster runs on timely-dataflow: the hosts file, connecting the processes with a deadline, and
//! exchange rounds (records routed to an owner worker) that the commands build their runs from.
//!
//! The wire protocol is timely's own. We only open the TCP connections ourselves, with timely's
//! handshake (the connecting process sends its index as a big-endian u64, lower indices accept
//! from higher ones), because timely's own connect loop retries forever and prints to stdout; here
//! a peer that never comes up is an error after a deadline, and stdout carries only the result.

use std::cell::RefCell;
use std::io::Write;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::rc::Rc;
use std::time::{Duration, Instant};

use thiserror::Error;
use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// A validated cluster: every process's address, this process, and worker threads per process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    pub hosts: Vec<String>,
    pub process: usize,
    pub workers: usize,
    /// How long to wait for every peer to connect.
    pub connect_timeout: Duration,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ClusterError {
    #[error("hosts file line {line}: {text:?} is not host:port (port 1..=65535)")]
    BadHost { line: usize, text: String },
    #[error("hosts file holds no host:port line")]
    NoHosts,
    #[error("hosts file line {line}: {text} is listed twice")]
    DuplicateHost { line: usize, text: String },
    #[error("--process {process} is out of range: the hosts file lists {processes} processes (0..={last})", last = processes - 1)]
    ProcessOutOfRange { process: usize, processes: usize },
    #[error("--workers must be at least 1")]
    NoWorkers,
    #[error("cannot listen on {address} (this process's line of the hosts file): {error}")]
    Listen { address: String, error: String },
    #[error(
        "processes {missing:?} did not connect within {seconds} s (are they started with the same hosts file, and reachable?)"
    )]
    PeerTimeout { missing: Vec<usize>, seconds: u64 },
    #[error("connecting the cluster: {0}")]
    Network(String),
    #[error("a worker failed: {0}")]
    WorkerFailed(String),
    #[error(
        "the cluster's processes run different jobs: start every process with the same command, arguments and --workers (only --process differs)"
    )]
    DifferentJobs,
}

/// Parses a hosts file: one `host:port` per line in process order; blank lines and `#` comments
/// are skipped.
pub fn parse_hosts(text: &str) -> Result<Vec<String>, ClusterError> {
    let mut hosts: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || ClusterError::BadHost {
            line: i + 1,
            text: raw.trim().to_string(),
        };
        let (host, port) = line.rsplit_once(':').ok_or_else(bad)?;
        let port: u16 = port.parse().map_err(|_| bad())?;
        if host.is_empty() || port == 0 || host.contains(char::is_whitespace) {
            return Err(bad());
        }
        if hosts.iter().any(|h| h == line) {
            return Err(ClusterError::DuplicateHost {
                line: i + 1,
                text: line.to_string(),
            });
        }
        hosts.push(line.to_string());
    }
    if hosts.is_empty() {
        return Err(ClusterError::NoHosts);
    }
    Ok(hosts)
}

impl Cluster {
    pub fn new(
        hosts: Vec<String>,
        process: usize,
        workers: usize,
        connect_timeout: Duration,
    ) -> Result<Cluster, ClusterError> {
        if hosts.is_empty() {
            return Err(ClusterError::NoHosts);
        }
        if process >= hosts.len() {
            return Err(ClusterError::ProcessOutOfRange {
                process,
                processes: hosts.len(),
            });
        }
        if workers == 0 {
            return Err(ClusterError::NoWorkers);
        }
        Ok(Cluster {
            hosts,
            process,
            workers,
            connect_timeout,
        })
    }

    pub fn processes(&self) -> usize {
        self.hosts.len()
    }

    /// Workers in the whole cluster.
    pub fn total_workers(&self) -> usize {
        self.processes() * self.workers
    }

    /// Opens a TCP connection to every other process (timely's handshake), or fails after
    /// `connect_timeout`. Connect before starting work that leaves traces (a checkpoint), so a
    /// cluster that never forms leaves nothing behind.
    pub fn connect(&self) -> Result<Connection, ClusterError> {
        if self.processes() == 1 {
            return Ok(Connection(Vec::new()));
        }
        self.sockets().map(Connection)
    }

    /// Entry `i` is the stream to process `i` (`None` for this process).
    fn sockets(&self) -> Result<Vec<Option<TcpStream>>, ClusterError> {
        let me = self.process;
        let n = self.processes();
        let deadline = Instant::now() + self.connect_timeout;
        let listener = if me + 1 < n {
            // Listen on every interface at this process's port: its host name may not resolve
            // yet from inside (a pod's DNS record appears late) or may name a NAT address.
            let port = self.hosts[me].rsplit_once(':').map_or("", |(_, p)| p);
            let l =
                TcpListener::bind(format!("0.0.0.0:{port}")).map_err(|e| ClusterError::Listen {
                    address: self.hosts[me].clone(),
                    error: e.to_string(),
                })?;
            l.set_nonblocking(true)
                .map_err(|e| ClusterError::Network(e.to_string()))?;
            Some(l)
        } else {
            None
        };
        let mut streams: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
        let timeout = |streams: &[Option<TcpStream>]| ClusterError::PeerTimeout {
            missing: (0..n)
                .filter(|&i| i != me && streams[i].is_none())
                .collect(),
            seconds: self.connect_timeout.as_secs(),
        };
        // Connect to the lower indices (they listen), retrying until they are up.
        for (i, slot) in streams.iter_mut().enumerate().take(me) {
            loop {
                if let Some(mut s) = self.hosts[i]
                    .to_socket_addrs()
                    .ok()
                    .into_iter()
                    .flatten()
                    .find_map(|a| TcpStream::connect_timeout(&a, Duration::from_secs(1)).ok())
                {
                    let sent = s
                        .set_nodelay(true)
                        .and_then(|_| s.write_all(&(me as u64).to_be_bytes()));
                    if sent.is_ok() {
                        *slot = Some(s);
                        break;
                    }
                }
                if Instant::now() >= deadline {
                    let mut missing: Vec<usize> = vec![i];
                    missing.extend(i + 1..me);
                    return Err(ClusterError::PeerTimeout {
                        missing,
                        seconds: self.connect_timeout.as_secs(),
                    });
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        // Accept the higher indices; each tells its index first.
        if let Some(listener) = listener {
            while streams[me + 1..].iter().any(Option::is_none) {
                match listener.accept() {
                    Ok((mut s, _)) => {
                        let mut id = [0u8; 8];
                        s.set_nonblocking(false)
                            .and_then(|_| s.set_read_timeout(Some(Duration::from_secs(10))))
                            .and_then(|_| std::io::Read::read_exact(&mut s, &mut id))
                            .and_then(|_| s.set_read_timeout(None))
                            .and_then(|_| s.set_nodelay(true))
                            .map_err(|e| ClusterError::Network(e.to_string()))?;
                        let id = u64::from_be_bytes(id) as usize;
                        if id <= me || id >= n || streams[id].is_some() {
                            return Err(ClusterError::Network(format!(
                                "a peer announced process index {id}: are two clusters sharing ports?"
                            )));
                        }
                        streams[id] = Some(s);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        if Instant::now() >= deadline {
                            return Err(timeout(&streams));
                        }
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    Err(e) => return Err(ClusterError::Network(e.to_string())),
                }
            }
        }
        Ok(streams)
    }

    /// Connects the cluster and runs `func` on each of this process's workers; returns their
    /// results in worker order. A peer dying mid-run makes timely's network threads panic with
    /// "timely communication error": the caller should stop the process on that panic (fail-stop).
    pub fn execute<T, F>(&self, connection: Connection, func: F) -> Result<Vec<T>, ClusterError>
    where
        T: Send + 'static,
        F: Fn(&mut Worker) -> T + Send + Sync + 'static,
    {
        let hooks = Hooks::default();
        let builders = if self.processes() == 1 {
            ProcessBuilder::new_typed_vector(self.workers, hooks.refill.clone(), None)
                .into_iter()
                .map(AllocatorBuilder::Process)
                .collect::<Vec<_>>()
        } else {
            let sockets = connection.0;
            let process =
                ProcessBuilder::new_typed_vector(self.workers, hooks.refill.clone(), None);
            let (tcp, guard) = initialize_networking_from_sockets(
                process,
                sockets,
                self.process,
                self.workers,
                hooks,
            )
            .map_err(|e| ClusterError::Network(e.to_string()))?;
            return join(timely::execute::execute_from(
                tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
                Box::new(guard),
                timely::WorkerConfig::default(),
                func,
            ));
        };
        join(timely::execute::execute_from(
            builders,
            Box::new(()),
            timely::WorkerConfig::default(),
            func,
        ))
    }
}

impl Cluster {
    /// Runs one job on every worker of the cluster: first checks that all processes run the same
    /// job (`fingerprint`, a hash of the command and its parameters; see [`same_job`]), then runs
    /// `func`, which returns the answer on worker 0 and `None` elsewhere. Returns the answer at
    /// process 0, `None` on the other processes.
    pub fn run_job<T, F>(
        &self,
        connection: Connection,
        fingerprint: u64,
        func: F,
    ) -> Result<Option<T>, ClusterError>
    where
        T: Send + 'static,
        F: Fn(&mut Worker) -> Option<T> + Send + Sync + 'static,
    {
        let results = self.execute(connection, move |w| {
            if same_job(w, fingerprint) {
                Ok(func(w))
            } else {
                Err(())
            }
        })?;
        let results: Vec<Option<T>> = results
            .into_iter()
            .collect::<Result<_, ()>>()
            .map_err(|_| ClusterError::DifferentJobs)?;
        Ok(results.into_iter().flatten().next())
    }
}

/// The open connections of a cluster, from [`Cluster::connect`].
pub struct Connection(Vec<Option<TcpStream>>);

fn join<T: Send + 'static>(
    guards: Result<timely::communication::WorkerGuards<T>, String>,
) -> Result<Vec<T>, ClusterError> {
    guards
        .map_err(ClusterError::Network)?
        .join()
        .into_iter()
        .map(|r| r.map_err(ClusterError::WorkerFailed))
        .collect()
}

/// One exchange round on a running worker: sends `items` (produced lazily, so a long computation
/// behind the iterator streams its results as they finish) to the workers `route` names (taken
/// modulo the number of workers), and calls `on_receive` on every item this worker receives, as it
/// arrives. Returns once every worker has sent everything and all of it has been delivered. Every
/// worker must run the same rounds in the same order.
pub fn round<T, I, R>(worker: &mut Worker, items: I, route: R, on_receive: &mut dyn FnMut(T))
where
    T: timely::ExchangeData + Clone,
    I: IntoIterator<Item = T>,
    R: Fn(&T) -> u64 + 'static,
{
    let mut input: InputHandle<u64, _> = InputHandle::new();
    let probe = ProbeHandle::new();
    let got: Rc<RefCell<Vec<T>>> = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .container::<Vec<T>>()
            .exchange(move |x: &T| route(x))
            .inspect(move |x: &T| sink.borrow_mut().push(x.clone()))
            .probe_with(&probe);
    });
    for item in items {
        input.send(item);
        // Flush at once: a finished unit should reach its owner (and process 0's checkpoint)
        // now, not when the whole round ends.
        input.flush();
        worker.step();
        got.borrow_mut().drain(..).for_each(&mut *on_receive);
    }
    drop(input);
    while !probe.done() {
        worker.step_or_park(Some(Duration::from_millis(50)));
        got.borrow_mut().drain(..).for_each(&mut *on_receive);
    }
    got.borrow_mut().drain(..).for_each(&mut *on_receive);
}

/// [`round`] collecting what this worker receives.
pub fn round_collect<T, I, R>(worker: &mut Worker, items: I, route: R) -> Vec<T>
where
    T: timely::ExchangeData + Clone,
    I: IntoIterator<Item = T>,
    R: Fn(&T) -> u64 + 'static,
{
    let mut out = Vec::new();
    round(worker, items, route, &mut |x| out.push(x));
    out
}

/// Checks that every worker of the cluster runs the same job: each sends `fingerprint` (a hash
/// of the command and its parameters) to every worker. Returns false on this worker when any
/// fingerprint differs from its own; every worker sees every fingerprint, so all of them agree on
/// the verdict. Run it as the first round, before rounds whose record types depend on the job.
pub fn same_job(worker: &mut Worker, fingerprint: u64) -> bool {
    let (_, peers) = position(worker);
    let all = (0..peers as u64).map(|t| (t, fingerprint));
    round_collect(worker, all, |x| x.0)
        .iter()
        .all(|&(_, f)| f == fingerprint)
}

/// The global index of a worker and the number of workers, for splitting units: unit `u` runs on
/// worker `u % peers`.
pub fn position(worker: &Worker) -> (usize, usize) {
    (worker.index(), worker.peers())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_files() {
        assert_eq!(
            parse_hosts("# cluster\nnode1:2101\n\n  node2:2101  # second\n[::1]:7000\n").unwrap(),
            vec!["node1:2101", "node2:2101", "[::1]:7000"]
        );
        assert_eq!(parse_hosts("\n# none\n"), Err(ClusterError::NoHosts));
        for bad in [
            "node1",
            "node1:",
            "node1:x",
            ":80",
            "node1:70000",
            "a b:80",
            "n:0",
        ] {
            assert!(
                matches!(parse_hosts(bad), Err(ClusterError::BadHost { line: 1, .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            parse_hosts("a:1\na:1"),
            Err(ClusterError::DuplicateHost { line: 2, .. })
        ));
    }

    #[test]
    fn process_index_is_checked() {
        let hosts = vec!["a:1".to_string(), "b:1".to_string()];
        assert!(matches!(
            Cluster::new(hosts.clone(), 2, 1, Duration::from_secs(1)),
            Err(ClusterError::ProcessOutOfRange { .. })
        ));
        assert!(Cluster::new(hosts, 1, 1, Duration::from_secs(1)).is_ok());
    }

    #[test]
    fn rounds_route_to_owners_in_one_process() {
        let c = Cluster::new(vec!["localhost:1".into()], 0, 3, Duration::from_secs(1)).unwrap();
        let conn = c.connect().unwrap();
        let got = c
            .execute(conn, |w| {
                let (me, peers) = position(w);
                let mine: Vec<u64> = (0..30u64).filter(|u| *u as usize % peers == me).collect();
                let mut back = round_collect(w, mine, |x| x % 2);
                back.sort();
                (me, back)
            })
            .unwrap();
        assert_eq!(got[0].1, (0..30).step_by(2).collect::<Vec<u64>>());
        assert_eq!(got[1].1, (1..30).step_by(2).collect::<Vec<u64>>());
        assert!(got[2].1.is_empty());
    }

    #[test]
    fn workers_agree_on_the_job() {
        let c = Cluster::new(vec!["localhost:1".into()], 0, 3, Duration::from_secs(1)).unwrap();
        let same = c.execute(c.connect().unwrap(), |w| same_job(w, 7)).unwrap();
        assert_eq!(same, vec![true; 3]);
        let mixed = c
            .execute(c.connect().unwrap(), |w| same_job(w, w.index() as u64 / 2))
            .unwrap();
        assert_eq!(mixed, vec![false; 3]);
    }
}
