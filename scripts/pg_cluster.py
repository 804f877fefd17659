"""A PostgreSQL cluster for the benchmarks: initdb in a temporary folder (or in a kept one, whose
databases later runs find again), a free port on 127.0.0.1, PostgreSQL's default durability
settings, run as nobody when run as root."""
import os, pwd, shutil, socket, subprocess, tempfile, uuid


def tool(name):
    """A PostgreSQL program: on the PATH, or in Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: int(v)) if os.path.isdir("/usr/lib/postgresql") else []
    for version in reversed(versions):
        path = f"/usr/lib/postgresql/{version}/bin/{name}"
        if os.access(path, os.X_OK):
            return path
    raise SystemExit(f"{name} not found: install PostgreSQL (apt-get install postgresql)")


def psql(url, statement, out=None):
    """One SQL query's rows at `url`, as psql prints them unaligned (a line a row, `|` between
    values); written to the file `out` instead when given (read a thousand rows at a time)."""
    argv = [tool("psql"), url, "-v", "ON_ERROR_STOP=1", "-v", "FETCH_COUNT=1000", "-At", "-c", statement]
    if out:
        subprocess.run(argv, check=True, stdout=out, stderr=subprocess.PIPE, text=True, cwd="/")
        return []
    return subprocess.run(argv, check=True, capture_output=True, text=True, cwd="/").stdout.splitlines()


class Cluster:
    """A throwaway cluster, stopped and removed by `stop`; or, given a `kept` folder, the cluster
    kept there (made the first time), which `stop` only stops."""

    def __init__(self, kept=None):
        self.kept = kept
        self.run_as = "nobody" if os.geteuid() == 0 else None
        if kept and os.path.exists(os.path.join(kept, "data", "PG_VERSION")):
            self.folder, self.data = kept, os.path.join(kept, "data")
            with open(os.path.join(kept, "password")) as f:
                self.password = f.read().strip()
            self.start()
            return
        if kept:
            shutil.rmtree(kept, ignore_errors=True)  # an initdb that did not finish
            os.makedirs(kept)
        self.folder = kept or tempfile.mkdtemp(prefix="shelf-pg-bench-")
        self.password = uuid.uuid4().hex
        with open(os.path.join(self.folder, "password"), "w") as f:
            f.write(self.password)
        if self.run_as:
            user = pwd.getpwnam(self.run_as)
            os.chmod(self.folder, 0o755)
            for root, _, files in os.walk(self.folder):
                os.chown(root, user.pw_uid, user.pw_gid)
                for name in files:
                    os.chown(os.path.join(root, name), user.pw_uid, user.pw_gid)
        self.data = os.path.join(self.folder, "data")
        self.command([tool("initdb"), "-D", self.data, "-U", "shelf", f"--pwfile={self.folder}/password",
                      "--auth=scram-sha-256", "-E", "UTF8", "--no-locale"])
        self.start()
        self.command([tool("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", "shelf"],
                     env=dict(os.environ, PGPASSWORD=self.password))

    def start(self):
        """Starts the server on a free port (a kept cluster's server left running by a run that was
        killed is stopped first); `url` is then its `shelf` database's."""
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            try:
                self.command([tool("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "stop"])
            except subprocess.CalledProcessError:
                pass  # not running: a stale pid file, which pg_ctl start sees through
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        self.command([tool("pg_ctl"), "-D", self.data, "-l", os.path.join(self.folder, "server.log"), "-w", "-o", options, "start"])
        self.url = f"postgresql://shelf:{self.password}@127.0.0.1:{self.port}/shelf"

    def command(self, argv, env=None):
        if self.run_as:
            argv = ["/usr/sbin/runuser", "-u", self.run_as, "--"] + argv
        subprocess.run(argv, check=True, capture_output=True, env=env, cwd="/")

    def stop(self):
        try:
            self.command([tool("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "stop"])
        finally:
            if not self.kept:
                shutil.rmtree(self.folder, ignore_errors=True)

    def sql(self, statement):
        """Runs one SQL statement (or several, separated by semicolons) in the database."""
        self.command([tool("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", "-d", "shelf",
                      "-v", "ON_ERROR_STOP=1", "-c", statement], env=dict(os.environ, PGPASSWORD=self.password))

    def database(self, name):
        """The URL of the cluster's database `name`, made if it is not there."""
        if not psql(self.url, f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
            return self.create_database(name)
        return f"postgresql://shelf:{self.password}@127.0.0.1:{self.port}/{name}"

    def create_database(self, name):
        """A new database of the cluster; its URL."""
        self.command([tool("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", name],
                     env=dict(os.environ, PGPASSWORD=self.password))
        return f"postgresql://shelf:{self.password}@127.0.0.1:{self.port}/{name}"
