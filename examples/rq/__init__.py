"""cardgen under RQ (Redis Queue): one job per card, run by ordinary RQ workers."""
