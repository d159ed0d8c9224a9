"""(filled below)"""
