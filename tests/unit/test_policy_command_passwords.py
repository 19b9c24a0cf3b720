"""A password given to a command on its command line, in SQL's IDENTIFIED BY, or on a .pgpass
line is refused; the same commands without one (a prompt, a variable, a placeholder) and other
tools' flags are not."""

import secrets
import string

import pytest

from ragixd.domain.policy import Policy

POLICY = Policy()


def password() -> str:
    # built at run time: letters, digits and a symbol, as a real one would have
    return "".join(secrets.choice(string.ascii_letters) for _ in range(7)) + str(secrets.randbelow(90) + 10) + "!"


@pytest.mark.parametrize("shape", [
    "sshpass -p '{pw}' ssh root@10.0.0.5",
    "sshpass -p{pw} scp backup.tar host:/srv",
    "mysql -u root -p{pw} -h db.internal prod",
    "mysqldump --single-transaction -u app -p{pw} shop > shop.sql",
    "docker login -u bob -p {pw} registry.example.com",
    "docker login --username bob --password={pw} ghcr.io",
    "redis-cli -h cache.internal -a {pw} ping",
    "CREATE USER 'app'@'%' IDENTIFIED BY '{pw}';",
    "ALTER USER app IDENTIFIED WITH mysql_native_password BY '{pw}';",
    "db.internal:5432:prod:app:{pw}",
])
def test_a_password_on_a_command_line_is_refused(shape):
    verdict = POLICY.check_text(shape.format(pw=password()))
    assert verdict.rejected and "secret.command_line_password" in [h.rule_id for h in verdict.hits]


@pytest.mark.parametrize("text", [
    "mysql -u root -p -h db prod",  # prompts for it
    "mysql -u root -p mydb < dump.sql",
    "mysql -u root -p$MYSQL_PWD prod",
    "docker login -u bob --password-stdin registry.example.com",
    "docker login -p $REGISTRY_TOKEN ghcr.io",
    "redis-cli -a $REDIS_PASSWORD ping",
    'sshpass -p "$SSHPASS" ssh host',
    "CREATE USER app IDENTIFIED BY '<password>';",
    "IDENTIFIED BY 'changeme'",
    "users identified by their e-mail address",
    "localhost:5432:*:postgres:*",
    "the meeting moved to 10:30:00:45 tomorrow",
    "grep -p pattern file && ls -a -p /tmp",
])
def test_the_same_commands_without_a_password_and_other_flags_are_accepted(text):
    assert not POLICY.check_text(text).rejected
