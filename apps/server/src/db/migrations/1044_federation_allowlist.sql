-- Federation policy (issue #35): an admin chooses open federation (every server but the blocked
-- ones) or an allow-list (only the hosts listed here). One row; none means open.
CREATE TABLE federation_policy (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  mode text NOT NULL DEFAULT 'open' CHECK (mode IN ('open', 'allowlist'))
);

CREATE TABLE federation_allowed_hosts (
  host text PRIMARY KEY,
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
