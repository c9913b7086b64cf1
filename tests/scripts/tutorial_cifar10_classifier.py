# The blitz 'Training a Classifier' tutorial (cifar10_tutorial.py) on 40 random 32x32 images in place of
# CIFAR10 (no torchvision): the LeNet-like Net, SGD with momentum, running loss every 5 batches, save and
# reload of the state_dict, overall and per-class accuracy with f-string alignment.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import numpy as np

torch.manual_seed(0)
batch_size = 4
imgs = torch.rand(40, 3, 32, 32) * 2 - 1
labels = torch.randint(0, 10, (40,))
trainset = torch.utils.data.TensorDataset(imgs, labels)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=batch_size, shuffle=True, num_workers=0)
testloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(imgs[:20], labels[:20]), batch_size=batch_size, shuffle=False, num_workers=0)
classes = ('plane', 'car', 'bird', 'cat',
           'deer', 'dog', 'frog', 'horse', 'ship', 'truck')

def imshow(img):
    img = img / 2 + 0.5     # unnormalize
    npimg = img.numpy()
    return np.transpose(npimg, (1, 2, 0)).shape

dataiter = iter(trainloader)
images, labels_ = next(dataiter)
print(imshow(images[0]))
print(' '.join(f'{classes[labels_[j]]:5s}' for j in range(batch_size)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1) # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):  # loop over the dataset multiple times
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels_ = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels_)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 5 == 4:    # print every 5 mini-batches
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 5:.3f}')
            running_loss = 0.0

print('Finished Training')
PATH = './cifar_net.tmp'
torch.save(net.state_dict(), PATH)

dataiter = iter(testloader)
images, labels_ = next(dataiter)
print('GroundTruth: ', ' '.join(f'{classes[labels_[j]]:5s}' for j in range(4)))
net = Net()
print(net.load_state_dict(torch.load(PATH)))
outputs = net(images)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}'
                              for j in range(4)))
correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels_ = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels_.size(0)
        correct += (predicted == labels_).sum().item()
print(f'Accuracy of the network on the 20 test images: {100 * correct // total} %')
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images, labels_ = data
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        for label, prediction in zip(labels_, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    if total_pred[classname] == 0:
        continue
    accuracy = 100 * float(correct_count) / total_pred[classname]
    print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(device)
import os; os.remove(PATH)
