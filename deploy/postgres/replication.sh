#!/bin/sh
# Run once by the postgres image when it creates the primary's data folder
# (/docker-entrypoint-initdb.d): lets the replica of docker-compose.yml stream the WAL, and gives
# the role the settings the service cannot send through the transaction-mode pooler.
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
ALTER ROLE "$POSTGRES_USER" SET statement_timeout = '30s';
ALTER ROLE "$POSTGRES_USER" SET TimeZone = 'UTC';
ALTER ROLE "$POSTGRES_USER" SET jit = off;
SQL
