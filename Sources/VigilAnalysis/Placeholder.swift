// VigilAnalysis
