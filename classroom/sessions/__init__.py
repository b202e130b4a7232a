"""sessions"""
