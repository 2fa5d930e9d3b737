-- Rate-limit counters shared by every API process on one database: one row per
-- (route, client) key and fixed window. UNLOGGED: a crash may forget counters, never data.
CREATE UNLOGGED TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  resets_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_resets_at ON rate_limits (resets_at);
