-- One PostgreSQL login role per service, each the owner of its own schema and of nothing else.
-- The apps then connect with their own DATABASE_URL (postgres://swapgw_gateway@.../swapgw, ...)
-- and cannot read or write another service's schema (permission denied, SQLSTATE 42501).
--
-- Run it once as an administrator (the RDS/Cloud SQL/Azure admin user, or postgres), connected to
-- the suite's database, before the apps first start; running it again is safe (it also moves the
-- tables an earlier shared role created to their service's role):
--
--   psql "postgres://admin@db.example.com:5432/swapgw?sslmode=verify-full&sslrootcert=ca.pem" \
--     -v gateway_password="$(cat gateway.pw)"         -v quote_password="$(cat quote.pw)" \
--     -v planner_password="$(cat planner.pw)"         -v signer_password="$(cat signer.pw)" \
--     -v limit_order_password="$(cat limit-order.pw)" -f deploy/postgres/roles.sql
--
-- Optional: -v role_prefix=acme (default swapgw) names the roles acme_gateway, acme_quote_service...
-- A role with no password variable given keeps the password it has (or none: certificate or IAM
-- authentication). See docs/runbook.md, "PostgreSQL over TLS and one role per service".
\set ON_ERROR_STOP on

\if :{?role_prefix}
\else
  \set role_prefix swapgw
\endif
\set gateway_role :role_prefix '_gateway'
\set quote_role :role_prefix '_quote_service'
\set planner_role :role_prefix '_execution_planner'
\set signer_role :role_prefix '_signer_surface'
\set limit_order_role :role_prefix '_limit_order_service'

BEGIN;

-- Each service's role and schema, as the apps name them (serviceDataSourceOptions' `schema`).
CREATE TEMPORARY TABLE swapgw_service_roles (role name PRIMARY KEY, schema name NOT NULL) ON COMMIT DROP;
INSERT INTO swapgw_service_roles VALUES
  (:'gateway_role', 'gateway'),
  (:'quote_role', 'quote'),
  (:'planner_role', 'planner'),
  (:'signer_role', 'signer'),
  (:'limit_order_role', 'limit_order');

-- The login roles: no superuser, no CREATEDB, no CREATEROLE.
SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE', role)
  FROM swapgw_service_roles WHERE NOT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = role) \gexec

-- On managed PostgreSQL the administrator is no superuser: it must be a member of a role to
-- create objects owned by it.
SELECT format('GRANT %I TO CURRENT_USER', role) FROM swapgw_service_roles
 WHERE NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) \gexec

-- Its database only (no CREATE on it: the schema below is created here, not by the app).
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', current_database(), role)
  FROM swapgw_service_roles \gexec

-- Its schema, owned by it: the app's migrations create and alter its tables, its `migrations`
-- table included. No grant on any other schema; `public` is left as PostgreSQL 15 makes it (no
-- CREATE for PUBLIC).
SELECT format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', schema, role) FROM swapgw_service_roles \gexec
SELECT format('ALTER SCHEMA %I OWNER TO %I', schema, role) FROM swapgw_service_roles \gexec
SELECT format('REVOKE ALL ON SCHEMA %I FROM PUBLIC', schema) FROM swapgw_service_roles \gexec

-- Tables, sequences, views and functions an earlier shared role created in the schema move to the
-- service's role (a database that ran with one role for all five apps before).
SELECT format('ALTER %s %I.%I OWNER TO %I',
              CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                             ELSE 'TABLE' END,
              s.schema, c.relname, s.role)
  FROM swapgw_service_roles s
  JOIN pg_namespace n ON n.nspname = s.schema
  JOIN pg_class c ON c.relnamespace = n.oid
 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S')
   AND pg_get_userbyid(c.relowner) <> s.role
   -- a sequence owned by a column moves with its table
   AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d
                                         WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
 ORDER BY c.relkind = 'S', c.relname \gexec
SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, s.role)
  FROM swapgw_service_roles s
  JOIN pg_namespace n ON n.nspname = s.schema
  JOIN pg_proc p ON p.pronamespace = n.oid
 WHERE pg_get_userbyid(p.proowner) <> s.role \gexec

-- Unqualified names resolve to the service's own schema.
SELECT format('ALTER ROLE %I SET search_path = %I', role, schema) FROM swapgw_service_roles \gexec

COMMIT;

-- Passwords (psql variables, never written into this file).
\if :{?gateway_password}
  ALTER ROLE :"gateway_role" PASSWORD :'gateway_password';
\endif
\if :{?quote_password}
  ALTER ROLE :"quote_role" PASSWORD :'quote_password';
\endif
\if :{?planner_password}
  ALTER ROLE :"planner_role" PASSWORD :'planner_password';
\endif
\if :{?signer_password}
  ALTER ROLE :"signer_role" PASSWORD :'signer_password';
\endif
\if :{?limit_order_password}
  ALTER ROLE :"limit_order_role" PASSWORD :'limit_order_password';
\endif
