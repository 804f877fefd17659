"""A throwaway PostgreSQL cluster for the benchmarks: initdb in a temporary folder, a free port on
127.0.0.1, PostgreSQL's default durability settings, run as nobody when run as root."""
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


class Cluster:
    """A throwaway cluster, stopped and removed by `stop`."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="shelf-pg-bench-")
        self.run_as = "nobody" if os.geteuid() == 0 else None
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
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        self.command([tool("pg_ctl"), "-D", self.data, "-l", os.path.join(self.folder, "server.log"), "-w", "-o", options, "start"])
        self.command([tool("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", "shelf"],
                     env=dict(os.environ, PGPASSWORD=self.password))
        self.url = f"postgresql://shelf:{self.password}@127.0.0.1:{self.port}/shelf"

    def command(self, argv, env=None):
        if self.run_as:
            argv = ["/usr/sbin/runuser", "-u", self.run_as, "--"] + argv
        subprocess.run(argv, check=True, capture_output=True, env=env, cwd="/")

    def stop(self):
        try:
            self.command([tool("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def sql(self, statement):
        """Runs one SQL statement (or several, separated by semicolons) in the database."""
        self.command([tool("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", "-d", "shelf",
                      "-v", "ON_ERROR_STOP=1", "-c", statement], env=dict(os.environ, PGPASSWORD=self.password))

    def create_database(self, name):
        """A new database of the cluster; its URL."""
        self.command([tool("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "shelf", name],
                     env=dict(os.environ, PGPASSWORD=self.password))
        return f"postgresql://shelf:{self.password}@127.0.0.1:{self.port}/{name}"
