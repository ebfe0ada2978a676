"""English dates as a European club reads them: "5 December 2026" and "5 Dec 2026", never
Django's American "Dec. 5, 2026" beside "12/05/2026", which a reader from Kyiv takes for 12 May;
times on the 24-hour clock, as the round clock and the printed sheets show them."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
