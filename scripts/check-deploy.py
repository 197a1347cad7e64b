#!/usr/bin/env python3
"""Checks of the container files that need no container engine (run by scripts/check-deploy.sh).

  check-deploy.py compose deploy/compose.yaml
      The compose file: PostgreSQL with a health check, two passmint nodes built from the Dockerfile, each waiting
      for a healthy PostgreSQL, publishing port 8080 on its own port, with every named volume it mounts declared; the
      secrets (database URL, API key, link secret, PostgreSQL's password) as files: each <NAME>_FILE names
      /run/secrets/<secret>, a secret the service lists and the file declares, and no secret is in the environment.
  check-deploy.py database-url FILE
      The URL deploy/make-secrets.sh writes: host postgres, port 5432, sslmode=verify-full.
  check-deploy.py pods deploy/kubernetes/*.yaml
      Every pod template mounts no service-account token and bounds each emptyDir; a NetworkPolicy selects the pods.
  check-deploy.py jobs deploy/kubernetes/*.yaml
      Each Indexed Job's `--shard $(JOB_COMPLETION_INDEX)/n` has the n of its completions.
  check-deploy.py packages Dockerfile LINKED-PACKAGE...
      The packages the Dockerfile's last stage installs are exactly the packages of the libraries the binary links
      (given), plus ca-certificates (trust roots, no library); prints what is missing or not needed.
Exit status 1 with one line per problem.
"""
import re
import sys

import yaml

# Installed in the runtime image although no library of the binary comes from it.
NOT_LINKED = {"ca-certificates": "the trust roots for APNs, Google and PostgreSQL over TLS"}


def check_compose(path):
    problems = []
    with open(path) as file:
        compose = yaml.safe_load(file)
    services = compose.get("services") or {}
    declared = set((compose.get("volumes") or {}).keys())
    postgres = services.get("postgres")
    if not postgres:
        problems.append(f"{path}: no service postgres")
    elif "healthcheck" not in postgres:
        problems.append(f"{path}: services.postgres has no healthcheck (the nodes wait for it to be healthy)")
    if postgres:
        problems += check_secret_files(path, f"{path}: services.postgres", postgres, compose, ("POSTGRES_PASSWORD",))
    nodes = {name: service for name, service in services.items() if name != "postgres"}
    if len(nodes) < 2:
        problems.append(f"{path}: {len(nodes)} passmint node(s), expected 2")
    published = []
    for name, node in nodes.items():
        place = f"{path}: services.{name}"
        build = node.get("build") or {}
        if build.get("dockerfile", "Dockerfile") != "Dockerfile" or build.get("context") != "..":
            problems.append(f"{place}.build: expected context .. and the repository's Dockerfile, found {build!r}")
        condition = ((node.get("depends_on") or {}).get("postgres") or {}).get("condition")
        if condition != "service_healthy":
            problems.append(f"{place}.depends_on.postgres.condition: expected service_healthy, found {condition!r}")
        environment = node.get("environment") or {}
        if "PASSMINT_PUBLIC_URL" not in environment:
            problems.append(f"{place}.environment: no PASSMINT_PUBLIC_URL")
        problems += check_secret_files(path, place, node, compose,
                                       ("PASSMINT_DATABASE_URL", "PASSMINT_API_KEY", "PASSMINT_LINK_SECRET"))
        ports = [str(port) for port in node.get("ports") or []]
        if not any(port.endswith(":8080") for port in ports):
            problems.append(f"{place}.ports: container port 8080 is not published ({ports})")
        # A node speaks plain HTTP here (PASSMINT_ALLOW_HTTP): on loopback only, behind the machine's TLS proxy.
        for port in ports:
            if not port.startswith(("127.0.0.1:", "[::1]:")):
                problems.append(f"{place}.ports: {port} publishes plain HTTP on every interface: bind it to 127.0.0.1")
        published += [port.rsplit(":", 1)[0] for port in ports]
        for volume in node.get("volumes") or []:
            source = str(volume).split(":", 1)[0]
            if not source.startswith((".", "/", "$")) and source not in declared:
                problems.append(f"{place}.volumes: {source} is not declared under volumes")
    for port in {port for port in published if published.count(port) > 1}:
        problems.append(f"{path}: host port {port} is published by more than one node")
    return problems


def check_secret_files(path, place, service, compose, variables):
    """Each variable given as <variable>_FILE=/run/secrets/<name>, <name> listed by the service and declared as a file."""
    problems = []
    environment = service.get("environment") or {}
    listed = [str(entry if isinstance(entry, str) else entry.get("source")) for entry in service.get("secrets") or []]
    declared = compose.get("secrets") or {}
    for variable in variables:
        if variable in environment:
            problems.append(f"{place}.environment.{variable}: a secret in the environment (docker inspect shows it): "
                            f"give {variable}_FILE=/run/secrets/… instead")
        target = str(environment.get(f"{variable}_FILE", ""))
        if not target.startswith("/run/secrets/"):
            problems.append(f"{place}.environment: no {variable}_FILE naming a file under /run/secrets/ (found {target!r})")
            continue
        name = target[len("/run/secrets/"):]
        if name not in listed:
            problems.append(f"{place}.secrets: {name} (named by {variable}_FILE) is not listed")
        if "file" not in (declared.get(name) or {}):
            problems.append(f"{path}: secrets.{name} is not declared with a file")
    return problems


def check_database_url(path):
    with open(path) as file:
        url = file.read().strip()
    problems = []
    if not re.match(r"postgres(ql)?://[^@]*@postgres(:5432)?/", url):
        problems.append(f"{path}: expected postgres://…@postgres:5432/…")
    if "sslmode=verify-full" not in url:
        problems.append(f"{path}: talks to PostgreSQL without sslmode=verify-full")
    return problems


def check_jobs(paths):
    problems = []
    for path in paths:
        with open(path) as file:
            for document in yaml.safe_load_all(file):
                if not document or document.get("kind") != "Job":
                    continue
                spec = document["spec"]
                if spec.get("completionMode") != "Indexed":
                    continue
                for container in spec["template"]["spec"]["containers"]:
                    arguments = container.get("args") or []
                    if "--shard" not in arguments:
                        problems.append(f"{path}: Job {document['metadata']['name']}: container {container['name']} has no --shard")
                        continue
                    shard = arguments[arguments.index("--shard") + 1]
                    expected = f"$(JOB_COMPLETION_INDEX)/{spec.get('completions')}"
                    if shard != expected:
                        problems.append(f"{path}: Job {document['metadata']['name']}: --shard {shard}, expected {expected} (completions)")
    return problems


def check_pods(paths):
    """Every pod template (Deployment, Job): no service-account token mounted (Passmint never calls the Kubernetes
    API), every emptyDir bounded by a sizeLimit; and a NetworkPolicy selecting Passmint's pods."""
    problems = []
    policies = 0
    for path in paths:
        with open(path) as file:
            for document in yaml.safe_load_all(file):
                if not document:
                    continue
                kind = document.get("kind")
                name = f"{path}: {kind} {document.get('metadata', {}).get('name')}"
                if kind == "NetworkPolicy":
                    labels = document["spec"].get("podSelector", {}).get("matchLabels", {})
                    if labels.get("app.kubernetes.io/name") == "passmint":
                        policies += 1
                    continue
                if kind not in ("Deployment", "Job"):
                    continue
                pod = document["spec"]["template"]["spec"]
                if pod.get("automountServiceAccountToken") is not False:
                    problems.append(f"{name}: automountServiceAccountToken is not false (the pod would hold an API token it never uses)")
                for volume in pod.get("volumes") or []:
                    if "emptyDir" in volume and not (volume["emptyDir"] or {}).get("sizeLimit"):
                        problems.append(f"{name}: emptyDir {volume['name']} has no sizeLimit (a full one fills the node's disk)")
    if policies == 0:
        problems.append("deploy/kubernetes: no NetworkPolicy selects app.kubernetes.io/name: passmint")
    return problems


def runtime_packages(path):
    """The packages `apt-get install` names in the Dockerfile's last stage."""
    with open(path) as file:
        text = file.read().replace("\\\n", " ")
    stages = re.split(r"^FROM\s", text, flags=re.M)
    packages = set()
    for line in stages[-1].splitlines():
        if not line.startswith("RUN") or "apt-get install" not in line:
            continue
        command = line.split("apt-get install", 1)[1].split("&&", 1)[0]
        packages |= {word for word in command.split() if not word.startswith("-")}
    return packages


def check_packages(path, linked):
    listed = runtime_packages(path)
    linked = set(linked)
    problems = [f"{path}: the binary links a library of {package}, which the runtime stage does not install" for package in sorted(linked - listed)]
    for package in sorted(listed - linked - set(NOT_LINKED)):
        problems.append(f"{path}: the runtime stage installs {package}, which no library the binary links comes from: remove it")
    if not problems:
        extra = ", ".join(f"{name} ({why})" for name, why in NOT_LINKED.items() if name in listed)
        print(f"check-deploy: the runtime stage installs exactly the {len(linked)} packages the binary links, and {extra}")
    return problems


def main(arguments):
    if len(arguments) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    kind, rest = arguments[0], arguments[1:]
    if kind == "compose":
        problems = check_compose(rest[0])
    elif kind == "database-url":
        problems = check_database_url(rest[0])
    elif kind == "jobs":
        problems = check_jobs(rest)
    elif kind == "pods":
        problems = check_pods(rest)
    elif kind == "packages":
        problems = check_packages(rest[0], rest[1:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(f"check-deploy: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
