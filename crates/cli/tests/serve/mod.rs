//! `versus serve` started by a test, on a free port, and stopped however
//! the test ends.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts `versus serve ARGS --port P` and waits until it says it
    /// serves; gives the server and what it said until then.
    pub fn start(args: &[&str]) -> (Server, String) {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_versus"))
            .arg("serve")
            .args(args)
            .args(["--port", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut log = BufReader::new(child.stderr.take().unwrap());
        let server = Server { child, port };
        let mut said = String::new();
        while !said.contains("serving on") {
            assert!(log.read_line(&mut said).unwrap() > 0, "the server stopped: {said}");
        }
        (server, said)
    }

    /// `GET path`: the status line and the body.
    pub fn get(&self, path: &str) -> (String, String) {
        // It says so just before it listens.
        let start = Instant::now();
        let mut stream = loop {
            match TcpStream::connect(("127.0.0.1", self.port)) {
                Ok(stream) => break stream,
                Err(error) if start.elapsed() > Duration::from_secs(10) => panic!("{error}"),
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap_or_default().to_owned(), body.to_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
