-- Account state (ARCHITECTURE §8): only `active` accounts log in and act. `pending_approval` waits
-- for a moderator (registration in approval mode); `suspended` lasts until suspended_until (never
-- when NULL). state_reason is what the account is told.
ALTER TABLE users
  ADD COLUMN state text NOT NULL DEFAULT 'active'
    CONSTRAINT users_state_check CHECK (state IN ('active', 'pending_approval', 'suspended')),
  ADD COLUMN state_reason text,
  ADD COLUMN suspended_until timestamptz;

-- Instance settings: one row, the values an admin changed (the rest come from defaults in code).
CREATE TABLE instance_settings (
  id boolean PRIMARY KEY DEFAULT true CONSTRAINT instance_settings_one_row CHECK (id),
  value jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
