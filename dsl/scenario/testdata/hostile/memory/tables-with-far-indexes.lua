scenario { id = "h", title = "H", briefing = "B", start = "09:00", duration = "1h" }
A, B, C = {}, {}, {}
A[262143] = 1
B[262143] = 1
C[262143] = 1
