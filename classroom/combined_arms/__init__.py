"""combined_arms"""
