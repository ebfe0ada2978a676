"""Web pages of the tournaments app: public pages, and the director's pages under /manage/."""
