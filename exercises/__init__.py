"""Exercises: Django apps that build on ``lessons`` (grounding, labs, evidence)."""
