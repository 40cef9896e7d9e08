scenario "my drill"
