"""A throw-away PostgreSQL cluster for the tests: real, local, cheap (docs/store.md, docs/testing.md).

One cluster per pytest process (each xdist worker starts its own, and only
when one of its tests asks for PostgreSQL): ``initdb`` into a temp folder,
``pg_ctl start`` listening only on a unix socket in that folder (no TCP; the
socket's port number is chosen free), durability off (fsync, full pages: a
crash loses a test run, nothing else).  Every test gets its own empty schema
(``CREATE SCHEMA`` costs milliseconds, a database hundreds), selected through
the URL's ``search_path``.  The cluster is stopped at the end of the session —
by the fixture's finaliser, and by ``atexit`` if the run is interrupted (Ctrl-C).

PostgreSQL refuses to run as root; CI runs as root, so the cluster is made and
run as the unprivileged user ``nobody`` (``subprocess``'s ``user=``).  The
binaries come from ``PATH`` or Debian's ``/usr/lib/postgresql/<version>/bin``.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

#: The unprivileged account the cluster runs as when the tests run as root.
RUN_AS = "nobody"


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest Debian version first), or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    def version(folder: str) -> int:
        number = Path(folder).parent.name
        return int(number) if number.isdigit() else 0

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if os.access(Path(folder) / "initdb", os.X_OK) and os.access(Path(folder) / "pg_ctl", os.X_OK):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A running throw-away cluster; :meth:`url` gives a fresh, empty schema's address."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self._as_root = hasattr(os, "geteuid") and os.geteuid() == 0
        # /tmp when root: the cluster's user must reach the folder (a TMPDIR under /root it could not), and a
        # short path keeps the socket's name under the 107-byte limit of a unix socket address.
        base = "/tmp" if self._as_root and os.path.isdir("/tmp") else None
        self.folder = Path(tempfile.mkdtemp(prefix="ddz-pg-", dir=base))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._schemas = itertools.count(1)
        if self._as_root:
            import pwd

            entry = pwd.getpwnam(RUN_AS)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        os.chmod(self.folder, 0o700)
        self._stopped = False
        atexit.register(self.stop)
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "ddz", "--auth=trust", "-E", "UTF8",
                   "--no-locale", "--no-sync", "--no-instructions"])
        self._options = options = (f"-k {self.folder} -p {self.port} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
                   " -c synchronous_commit=off -c max_connections=200 -c shared_buffers=16MB")
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"),
                   "-w", "-t", "60", "start"])

    def _run(self, command: list[str]) -> None:
        extra = {"user": RUN_AS} if self._as_root else {}
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder,
                                **extra)  # type: ignore[call-overload]
        if result.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {(result.stderr or result.stdout).strip()[-500:]}")

    @property
    def base_url(self) -> str:
        return f"postgresql://ddz@/postgres?host={self.folder}&port={self.port}"

    def url(self) -> str:
        """A fresh, empty schema of this cluster, as a URL whose connections use it."""
        import psycopg

        schema = f"t{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(self.base_url, autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {schema}")
        return f"{self.base_url}&options=-csearch_path%3D{schema}"

    def pause(self) -> None:
        """Stop the server (a "fast" shutdown: its connections are cut), keeping its data: a database outage."""
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def resume(self) -> None:
        """Start the server again after :meth:`pause`, on the same socket."""
        self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", self._options, "-l",
                   str(self.folder / "log"), "-w", "-t", "60", "start"])

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        except (RuntimeError, OSError, subprocess.SubprocessError):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
