"""Game records (``contack-record/1``): the format, writing, reading, auditing, narration."""
