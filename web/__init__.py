"""Every page of the site: public, director, player and live table; views, forms and URL routes."""
