"""Ukrainian dates as people write them: "1 грудня 2026 р.", not Django's "01 грудня 2026 р."
(a day without its leading zero, the month in the genitive). Django's own formats serve the rest."""

DATE_FORMAT = "j E Y р."
DATETIME_FORMAT = "j E Y р., H:i"
MONTH_DAY_FORMAT = "j E"
