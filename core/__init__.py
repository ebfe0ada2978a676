"""Infrastructure every app relies on and no app owns: the sign-in limit and its counts."""
