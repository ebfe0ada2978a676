"""Seat draw for 1001 tournaments: tables and seat order per round, or a whole repeat-free schedule.

Pure Python with no Django import, so the tournaments services call it and tests run it alone.
`python -m draws.seating --help` draws from the command line.
"""

from .quality import evaluate, meeting_counts, repeated_meetings
from .repair import repair_schedule
from .rounds import Draw, draw_round
from .schedule import Outlook, Progress, Schedule, draw_schedule, outlook
from .tables import SeatingError, TablePlan, plan_tables, repeat_free_bound, table_plan

__all__ = [
    "Draw",
    "Outlook",
    "Progress",
    "Schedule",
    "SeatingError",
    "TablePlan",
    "draw_round",
    "draw_schedule",
    "outlook",
    "evaluate",
    "meeting_counts",
    "plan_tables",
    "repeat_free_bound",
    "repeated_meetings",
    "repair_schedule",
    "table_plan",
]
