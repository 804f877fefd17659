"""The servers the scripts start: Google's Firestore emulator and `shelf serve`, each on a free
port of 127.0.0.1 and in a process group of its own (gcloud starts Java under it), so `stop`
ends everything it started: SIGTERM to the group, SIGKILL after 20 s. A script that starts one
ends on SIGTERM as on Ctrl-C, through its `finally` blocks, so what it started is stopped too
(Python's default would leave the emulator, Java and a PostgreSQL cluster running)."""
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmulatorMissing(Exception):
    """gcloud is there, its Firestore emulator is not (gcloud asks to install the component)."""


class Server:
    """A server started from `argv`, ready when `ready(line)` of its standard output gives a
    true value, kept as `ready`; its output is read on (so it never waits on a full pipe) and
    its last lines are said if it does not get ready. `log`: a file for its standard error,
    else with its output."""

    def __init__(self, argv, ready, timeout=120, log=None):
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=log or subprocess.STDOUT, text=True, start_new_session=True)
        lines = queue.Queue()

        def read():
            for line in self.process.stdout:
                lines.put(line)
            lines.put(None)  # it ended
        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + timeout
        self.output = []
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                said = "".join(self.output[-20:])
                if "install" in said.lower() and "component" in said.lower():
                    raise EmulatorMissing(said)
                raise SystemExit(f"{argv[0]} was not ready within {timeout} s:\n{said}")
            self.output.append(line)
            self.ready = ready(line)
            if self.ready:
                return

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def emulator(timeout=120):
    """Google's Firestore emulator; `address` is its host:port. Raises `EmulatorMissing`."""
    address = f"127.0.0.1:{free_port()}"
    server = Server(["gcloud", "emulators", "firestore", "start", f"--host-port={address}"],
                    lambda line: "Dev App Server is now running" in line, timeout)
    server.address = address
    return server


def shelf(binary, data, log=None, timeout=60):
    """`shelf serve` of `data` (a folder or a URL) on any free port; `address` is the one it
    printed ("Serving Firestore (google.firestore.v1) on 127.0.0.1:PORT for DATA")."""
    def address(line):
        words = line.split()
        return words[words.index("on") + 1] if line.startswith("Serving") and "on" in words else None
    server = Server([binary, "serve", "--data", data, "--port", "0"], address, timeout, log)
    server.address = server.ready
    return server
