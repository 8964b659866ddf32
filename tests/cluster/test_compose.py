"""docker-compose.yml (Docker cannot run here): it parses, names PostgreSQL and Redis with
persistence, three
game servers started with the command the local cluster tests run, and nginx passing
websockets on to all of them."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from server.config import parse_config

ROOT = Path(__file__).resolve().parents[2]


def options(argv: list[str]) -> list[str]:
    return [a for a in argv if a.startswith("--")]


def test_compose_runs_redis_three_servers_and_a_proxy(game_cluster):
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "game1", "game2", "game3", "proxy"}
    redis = services["redis"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert any(v.endswith(":/data") for v in redis["volumes"])
    assert "redis-data" in compose["volumes"]
    (local,) = game_cluster(1)  # the command the cluster tests run, one process of it
    ran = local.command()
    for name in ("game1", "game2", "game3"):
        game = services[name]
        command = game["command"]
        assert command[:3] == ["python", "-m", "server"] == ["python", *ran[1:3]]
        assert set(options(command)) <= set(options(ran)), "no option the tests do not use"
        config = parse_config(command[3:], env={})
        assert config.redis_url == "redis://redis:6379" and config.host == "0.0.0.0"
        assert game["build"] == "." and game["depends_on"]["redis"]["condition"]
        # the per-address limits hold per client: nginx (and only nginx) names the client
        env = {"NOVUSS_" + k.removeprefix("NOVUSS_"): v for k, v in game["environment"].items()}
        behind = parse_config(command[3:], env=env)
        assert behind.conns_per_address == parse_config([], env={}).conns_per_address
        assert behind.trusted_proxy == services["proxy"]["networks"]["novuss"]["ipv4_address"]
    assert (ROOT / "Dockerfile").is_file()
    proxy = services["proxy"]
    assert "nginx" in proxy["image"]
    mount = next(v for v in proxy["volumes"] if "nginx.conf" in v)
    conf = (ROOT / mount.split(":")[0]).read_text()
    assert set(re.findall(r"server (game\d):8080", conf)) == {"game1", "game2", "game3"}
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_http_version 1.1;" in conf
    assert conf.count("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;") == 2
    assert "proxy_set_header X-Real-IP $remote_addr;" in conf
    assert "noeviction" in redis["command"] and "--maxmemory" in redis["command"]
    # Redis asks for the password the game servers are given, and the bus key is set
    password = redis["command"][redis["command"].index("--requirepass") + 1]
    assert password.startswith("${NOVUSS_REDIS_PASSWORD:?")
    for name in ("game1", "game2", "game3"):
        env = services[name]["environment"]
        assert env["NOVUSS_REDIS_PASSWORD"] == password
        assert env["NOVUSS_BUS_KEY"].startswith("${NOVUSS_BUS_KEY:?")
    assert "${NOVUSS_REDIS_PASSWORD}" in redis["healthcheck"]["test"]
    # PostgreSQL, the system of record: on a volume, healthy before the servers start, and the
    # servers given its URL with its password
    postgres = services["postgres"]
    assert "postgres" in postgres["image"] and "postgres-data" in compose["volumes"]
    assert any(v.startswith("postgres-data:") for v in postgres["volumes"])
    assert "pg_isready" in postgres["healthcheck"]["test"]
    db_password = postgres["environment"]["POSTGRES_PASSWORD"]
    assert db_password.startswith("${NOVUSS_DB_PASSWORD:?")
    for name in ("game1", "game2", "game3"):
        game = services[name]
        assert game["depends_on"]["postgres"]["condition"] == "service_healthy"
        url = game["environment"]["NOVUSS_DATABASE_URL"]
        assert url.startswith("postgresql://novuss:" + db_password + "@postgres:5432/")
        config = parse_config(game["command"][3:], env={"NOVUSS_DATABASE_URL": url})
        assert config.database_url == url
