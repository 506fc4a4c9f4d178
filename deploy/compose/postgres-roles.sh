#!/bin/sh
# One PostgreSQL role per service database for docker-compose.prod.yml: role lv_<name> owns database
# lv_<name> and nothing else (no superuser, no CREATEDB, no CREATEROLE), and only it may connect to that
# database (CONNECT revoked from PUBLIC). Passwords come from PG_PASSWORD_<NAME> (compose-secrets.mjs).
#
# The postgres image runs it once, when it initialises an empty data volume
# (/docker-entrypoint-initdb.d). It is idempotent: on a volume that already holds data, run it by hand
# (`docker compose -f docker-compose.yml -f docker-compose.prod.yml exec postgres sh /docker-entrypoint-initdb.d/10-service-roles.sh`);
# it then only creates what is missing and sets each role's password again. Databases the superuser
# created before keep their owner: move their data with pg_dump/pg_restore --no-owner --role=lv_<name>.
#
# The list of databases is tools/dev/services.mjs's (deploy-consistency.spec.ts keeps it equal).
set -eu

for database in identity letters vault_media court_journal access_keys notifications timeline billing; do
  variable="PG_PASSWORD_$(echo "$database" | tr '[:lower:]' '[:upper:]')"
  eval "password=\${$variable:-}"
  if [ -z "$password" ]; then
    echo "postgres-roles: $variable is not set (run node tools/dev/compose-secrets.mjs)" >&2
    exit 1
  fi
  # psql's :'var' and :"var" quote the values; format() with %I/%L quotes them again inside the statements.
  psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
    -v name="lv_$database" -v password="$password" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE', :'name')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'name') \gexec
SELECT format('ALTER ROLE %I WITH LOGIN PASSWORD %L', :'name', :'password') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'name', :'name')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'name') \gexec
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', :'name') \gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', :'name', :'name') \gexec
SQL
done
