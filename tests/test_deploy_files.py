"""The deployment files: images build where an engine and the base image are present; the
example origin's nginx config is valid nginx; compose/k8s/CI files are well-formed YAML."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from balancer_harness import nginx_binary

ROOT = Path(__file__).resolve().parent.parent


def _engine() -> str | None:
    docker = shutil.which("docker") or shutil.which("podman")
    if docker is None:
        return None
    ok = subprocess.run([docker, "info"], capture_output=True, timeout=20).returncode == 0
    return docker if ok else None


@pytest.mark.slow
@pytest.mark.parametrize("dockerfile", ["Dockerfile.server", "Dockerfile.compiler"])
def test_images_build(dockerfile):
    engine = _engine()
    if engine is None:
        pytest.skip("no container engine answers here (docker/podman info fails)")
    have_base = subprocess.run([engine, "image", "inspect", "python:3.11-slim"], capture_output=True,
                               timeout=20).returncode == 0
    if not have_base:
        pytest.skip("the base image python:3.11-slim is not present locally (the test does not pull)")
    tag = f"v8atlas-test-{dockerfile.lower().replace('.', '-')}"
    r = subprocess.run([engine, "build", "--pull=false", "-f", dockerfile, "-t", tag, "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (bash tools/setup_nginx.sh)")
def test_example_origin_nginx_config_is_valid(tmp_path):
    conf = tmp_path / "nginx.conf"
    site = (ROOT / "examples/origin/nginx.conf").read_text().replace("listen 80;", "listen 127.0.0.1:1;") \
        .replace("/srv/bundles", str(tmp_path))
    conf.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
                    f"http {{\n client_body_temp_path {tmp_path};\n{site}\n}}\n")
    r = subprocess.run([nginx_binary(), "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("path", ["compose.yaml", "examples/k8s/v8atlas.yaml", "examples/ci/github-actions.yml",
                                  "examples/ci/gitlab-ci.yml"])
def test_deploy_yaml_is_well_formed(path):
    import yaml     # PyYAML: in the dev extra
    docs = list(yaml.safe_load_all((ROOT / path).read_text(encoding="utf-8")))
    assert docs and all(isinstance(d, dict) for d in docs)
    if path.endswith("v8atlas.yaml"):
        deploy = next(d for d in docs if d["kind"] == "Deployment")
        container = deploy["spec"]["template"]["spec"]["containers"][0]
        assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
        assert deploy["spec"]["replicas"] >= 2
