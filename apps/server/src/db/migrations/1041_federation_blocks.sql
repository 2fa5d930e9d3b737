-- Federation blocks (issue #35): an admin blocks a whole remote host or one remote account (its
-- actor URI). Nothing is delivered to it and nothing it sends is accepted; what we kept of it goes.
CREATE TABLE federation_blocks (
  target text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('host', 'actor')),
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
