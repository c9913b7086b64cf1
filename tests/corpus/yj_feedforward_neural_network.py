# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/yunjey/pytorch-tutorial/blob/0500d3df5a2a8080ccfccbc00aca0eacc21818db/tutorials/01-basics/feedforward_neural_network/main.py
# License: MIT (Copyright (c) 2017 Yunjey Choi)
# Adaptations (nothing else changed):
#  - the torchvision imports removed (not installed) and the MNIST downloads replaced by a TensorDataset of seeded torch.rand images and torch.randint labels (2000 train, 500 test)
#  - torch.manual_seed(0) after the imports, so the data and the initial weights are reproducible
#  - num_epochs cut to 1; the loss printed every 5 steps instead of every 100
#  - the checkpoint is saved as model.ckpt.tmp (the test run removes *.tmp)

import torch
import torch.nn as nn
torch.manual_seed(0)  # nnscope corpus: reproducible


# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

# Hyper-parameters 
input_size = 784
hidden_size = 500
num_classes = 10
num_epochs = 1
batch_size = 100
learning_rate = 0.001

# MNIST dataset 
train_dataset = torch.utils.data.TensorDataset(torch.rand(2000, 1, 28, 28), torch.randint(0, 10, (2000,)))  # nnscope corpus: stands in for the download

test_dataset = torch.utils.data.TensorDataset(torch.rand(500, 1, 28, 28), torch.randint(0, 10, (500,)))  # nnscope corpus: stands in for the download

# Data loader
train_loader = torch.utils.data.DataLoader(dataset=train_dataset, 
                                           batch_size=batch_size, 
                                           shuffle=True)

test_loader = torch.utils.data.DataLoader(dataset=test_dataset, 
                                          batch_size=batch_size, 
                                          shuffle=False)

# Fully connected neural network with one hidden layer
class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size) 
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden_size, num_classes)  
    
    def forward(self, x):
        out = self.fc1(x)
        out = self.relu(out)
        out = self.fc2(out)
        return out

model = NeuralNet(input_size, hidden_size, num_classes).to(device)

# Loss and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)  

# Train the model
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):  
        # Move tensors to the configured device
        images = images.reshape(-1, 28*28).to(device)
        labels = labels.to(device)
        
        # Forward pass
        outputs = model(images)
        loss = criterion(outputs, labels)
        
        # Backward and optimize
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        
        if (i+1) % 5 == 0:
            print ('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}' 
                   .format(epoch+1, num_epochs, i+1, total_step, loss.item()))

# Test the model
# In test phase, we don't need to compute gradients (for memory efficiency)
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, 28*28).to(device)
        labels = labels.to(device)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()

    print('Accuracy of the network on the 10000 test images: {} %'.format(100 * correct / total))

# Save the model checkpoint
torch.save(model.state_dict(), 'model.ckpt.tmp')