"""ddz-tutor: a trainer for Dou Di Zhu (斗地主)."""

from __future__ import annotations

__version__ = "0.1.0"
