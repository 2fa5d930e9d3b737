-- Account roles (ARCHITECTURE §8): staff are moderators and admins; everyone else is a user.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'user'
  CONSTRAINT users_role_check CHECK (role IN ('user', 'moderator', 'admin'));
