//! A Domineering player that misbehaves on purpose, one way per behaviour,
//! to test the judge against real processes.
//!
//! When it behaves it answers `OK` to `READY` and passes (`MOVE -1 -1`, always
//! legal in Domineering) on every `TURN`, and exits after `FINISH`.
//!
//! Usage: `versus-testkit BEHAVIOUR [ARG]`, behaviours listed in `usage()`.

// Leaving children unwaited is the point of several behaviours.
#![allow(clippy::zombie_processes)]

use std::io::{self, BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};
use std::thread;
use std::time::Duration;

fn usage() -> &'static str {
    "usage: versus-testkit BEHAVIOUR [ARG]
behaviours:
  pass            behave: OK to READY, pass on every TURN, exit after FINISH
  silent          never answer anything, not even READY
  hang N          hang forever at the N-th TURN
  late            answer the first TURN 1 ms after its deadline
  slow MS         wait MS ms before every answer to TURN
  burn MS THREADS K
                  at each of the first K TURNs, THREADS threads each use MS ms
                  of CPU time; after FINISH, print the process's own CPU time
                  as the kernel counts it (`cpu-ms N`) on stderr
  unflushed       answer the first TURN without flushing, then wait for input
  exit-after-finish CODE
                  behave, then exit with status CODE after FINISH
  exit N CODE     exit with status CODE at the N-th TURN
  abort           die by SIGABRT at the first TURN
  garbage         answer the first TURN with a line that is no move
  illegal         answer the first TURN with an illegal move
  endless-line    answer the first TURN with an endless line without newline
  chatty          after OK, print moves nobody asked for, endlessly
  stderr-flood    behave, while writing to stderr endlessly
  close-stdout    close stdout at the first TURN and keep running
  ignore-term     behave, but ignore SIGTERM and do not exit after FINISH
  linger          behave, but do not exit after FINISH
  grandchild      start a grandchild that keeps the pipes open, then behave
  escape          start a grandchild in its own session, then behave
  memory          allocate and touch 2 GiB at the first TURN
  fork            start 100 processes at the first TURN
  bomb DEPTH [escape]
                  print its pid on stderr, then at the first TURN start a tree
                  of processes, each of which starts two more, DEPTH levels
                  deep; with escape each starts in a process group of its own
  bomb-node DEPTH [escape]  (a node of that tree)"
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(behaviour) = args.first().map(String::as_str) else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok()).unwrap_or(1);
    match behaviour {
        "bomb-node" => {
            bomb(number(1), args.get(2).is_some_and(|a| a == "escape"));
            return ExitCode::SUCCESS;
        }
        "ignore-term" => {
            // SIG_IGN survives exec: the shell ignores TERM, then becomes us.
            let me = std::env::current_exe().expect("own path");
            let error = Command::new("sh")
                .arg("-c")
                .arg("trap '' TERM; exec \"$0\" linger ignoring-term")
                .arg(me)
                .exec();
            eprintln!("exec failed: {error}");
            return ExitCode::from(3);
        }
        "stderr-flood" => {
            eprintln!("starting to flood");
            thread::spawn(|| {
                let mut err = io::stderr();
                while writeln!(err, "debug debug debug debug debug debug debug").is_ok() {}
            });
        }
        "grandchild" => {
            Command::new("sleep").arg("601").spawn().expect("sleep starts");
        }
        "bomb" => eprintln!("pid {}", std::process::id()),
        "escape" => {
            Command::new("setsid").arg("sleep").arg("602").spawn().expect("setsid starts");
        }
        _ => {}
    }
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut turns = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.starts_with("READY") {
            if behaviour == "silent" {
                continue;
            }
            reply(&mut out, "OK");
            if behaviour == "chatty" {
                loop {
                    reply(&mut out, "MOVE -1 -1");
                }
            }
        } else if line.starts_with("TURN") {
            turns += 1;
            if turn(behaviour, turns, &line, &args, &mut out, number) {
                continue;
            }
            reply(&mut out, "MOVE -1 -1");
        } else if line == "FINISH" {
            if behaviour == "burn" {
                eprintln!("cpu-ms {}", own_cpu_ms());
            }
            if behaviour == "exit-after-finish" {
                return ExitCode::from(u8::try_from(number(1)).unwrap_or(1));
            }
            if matches!(behaviour, "linger" | "ignore-term") {
                loop {
                    thread::sleep(Duration::from_secs(1));
                }
            }
            break;
        }
    }
    ExitCode::SUCCESS
}

/// The misbehaviours that happen on a TURN; true when the turn was answered
/// (or deliberately not).
fn turn(
    behaviour: &str,
    turns: u64,
    line: &str,
    args: &[String],
    out: &mut impl Write,
    number: impl Fn(usize) -> u64,
) -> bool {
    let first = turns == 1;
    match behaviour {
        "hang" if turns == number(1) => loop {
            thread::sleep(Duration::from_secs(60));
        },
        "late" if first => {
            let my_time: u64 =
                line.split_whitespace().nth(1).and_then(|t| t.parse().ok()).unwrap_or(0);
            thread::sleep(Duration::from_millis(my_time + 1));
        }
        "slow" => thread::sleep(Duration::from_millis(number(1))),
        "burn" if turns <= number(3) => {
            let each = Duration::from_millis(number(1));
            let threads: Vec<_> =
                (0..number(2)).map(|_| thread::spawn(move || burn(each))).collect();
            for thread in threads {
                let _ = thread.join();
            }
        }
        "unflushed" if first => {
            // The reply sits in a buffer nobody flushes; the judge sees nothing.
            let mut buffered = io::BufWriter::new(io::stdout());
            let _ = writeln!(buffered, "MOVE -1 -1");
            loop {
                thread::sleep(Duration::from_secs(60));
            }
        }
        "exit" if turns == number(1) => {
            let code = args.get(2).and_then(|c| c.parse::<i32>().ok()).unwrap_or(1);
            std::process::exit(code);
        }
        "abort" if first => std::process::abort(),
        "garbage" if first => {
            reply(out, "hello judge");
            return true;
        }
        "illegal" if first => {
            reply(out, "MOVE 9 9");
            return true;
        }
        "endless-line" if first => loop {
            if out.write_all(&[b'x'; 4096]).is_err() {
                std::process::exit(0);
            }
        },
        "close-stdout" if first => {
            let error = Command::new("sh").arg("-c").arg("exec >&-; exec sleep 600").exec();
            eprintln!("exec failed: {error}");
            std::process::exit(3);
        }
        "memory" if first => {
            let mut blocks = Vec::new();
            for _ in 0..2048 {
                let mut block = vec![0u8; 1024 * 1024];
                for byte in block.iter_mut().step_by(4096) {
                    *byte = 1;
                }
                blocks.push(block);
            }
            std::hint::black_box(&blocks);
        }
        "fork" if first => {
            for _ in 0..100 {
                let _ = Command::new("sleep").arg("603").spawn();
            }
        }
        "bomb" if first => bomb(number(1), args.get(2).is_some_and(|a| a == "escape")),
        _ => {}
    }
    false
}

/// Starts two `bomb-node`s one level less deep (none at depth 0), each in
/// a process group of its own if `escape`, then waits for a minute. Their
/// parents die under them, so the judge adopts grandchildren of every level.
fn bomb(depth: u64, escape: bool) {
    if depth > 0 {
        if let Ok(me) = std::env::current_exe() {
            for _ in 0..2 {
                let mut node = Command::new(&me);
                node.arg("bomb-node").arg((depth - 1).to_string());
                if escape {
                    node.arg("escape").process_group(0);
                }
                let _ = node.spawn();
            }
        }
    }
    thread::sleep(Duration::from_secs(60));
}

/// Spins until this thread has used `amount` of CPU time.
/// (Without the scheduler's count it spins for that much real time.)
fn burn(amount: Duration) {
    let wall = std::time::Instant::now();
    let start = thread_cpu_ns();
    let used = || match (start, thread_cpu_ns()) {
        (Some(start), Some(now)) => Duration::from_nanos(now.saturating_sub(start)),
        _ => wall.elapsed(),
    };
    let mut x = 0u64;
    while used() < amount {
        for i in 0..10_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
        }
    }
}

/// The CPU time of the calling thread in ns, from the scheduler's own count.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
}

/// The process's user + system time, all threads (and waited children), as
/// the kernel keeps it in `/proc/self/stat` (ticks of 10 ms).
fn own_cpu_ms() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 =
        rest.split_whitespace().skip(11).take(4).filter_map(|f| f.parse::<u64>().ok()).sum();
    ticks * 10
}

fn reply(out: &mut impl Write, line: &str) {
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}
