"""Club seasons and players' ratings across tournaments."""
