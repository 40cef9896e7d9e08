scenario { id = "h", title = { en = "Two\nlines" }, briefing = "Line one.\nLine two." }
