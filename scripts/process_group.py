"""Stopping a server a script started in a process group of its own (the emulator's launcher
starts Java under it): SIGTERM to the whole group, then SIGKILL after 20 s."""
import os
import signal
import subprocess


def stop_group(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
